import type { RenditionOutcome } from './renditions';
import type { ExtrasOutcome } from './verify-extras';
import type { Outcome } from './verify-outcome';

export interface RunSummary {
  outcome: Outcome;
  /** Queued posts, first comments and Threads chains, recurring posts. */
  extras: ExtrasOutcome;
  /** Posts with normalize, against their sources' renditions. */
  renditions: RenditionOutcome;
  /** Entries left in the transcoder's work directory (a killed job's copy and output). */
  leftInWorkDir: number;
  /** Each fault, with how many posts were still to publish when it struck. */
  faults: string[];
  /** Faults that struck once publishing was over, or missed what they aim at (the transcoder killed with no ffmpeg running): they proved nothing. */
  unexercised: string[];
  crashes: string[];
  seconds: number;
}

/** Prints the run's figures; answers whether it passed. */
export function report({
  outcome: o,
  extras: x,
  renditions: r,
  leftInWorkDir,
  faults,
  unexercised,
  crashes,
  seconds,
}: RunSummary): boolean {
  const extrasOk =
    x.outOfSlot === 0 &&
    x.overfullSlots === 0 &&
    x.commentDuplicates === 0 &&
    x.commentsLost === 0 &&
    x.occurrenceDuplicates === 0 &&
    x.occurrencesMissing === 0;
  const renditionsOk = r.notDeduplicated === 0 && r.wrongMedia === 0 && r.stillWaiting === 0;
  const ok =
    extrasOk &&
    renditionsOk &&
    o.duplicates === 0 &&
    o.lost === 0 &&
    o.disagreements === 0 &&
    o.strandedOutbox === 0 &&
    crashes.length === 0 &&
    unexercised.length === 0;
  console.log('\n=== fault injection ===');
  console.log(
    `  posts                 ${o.posts} (posted ${o.posted}, failed ${o.failed}${o.unknownOutcome ? `, of which ${o.unknownOutcome} with an unknown outcome, live once` : ''})`,
  );
  console.log(`  faults                ${faults.length}:`);
  for (const f of faults) console.log(`                          ${f}`);
  console.log(`  duplicates            ${o.duplicates}`);
  console.log(`  lost                  ${o.lost}`);
  console.log(`  state disagreements   ${o.disagreements}`);
  console.log(`  stranded outbox rows  ${o.strandedOutbox}`);
  console.log(
    `  announced again       ${o.redispatched} (no outcome within POSTS_REDISPATCH_AFTER_MS; the publisher's attempt log kept each safe)`,
  );
  console.log(
    `  queued                ${x.queued} (posted ${x.queuedPosted}; ${x.slotsUsed} profile slots used, the fullest ${x.fullestSlot}); outside their slots ${x.outOfSlot}, slots above postsPerSlot ${x.overfullSlots}`,
  );
  console.log(`  first comments        ${x.commented} (posted ${x.commentsPosted}, failed ${x.commentsFailed})`);
  console.log(
    `  Threads chains        ${x.threadPosts} posts (parts posted ${x.partsPosted}, failed ${x.partsFailed})`,
  );
  console.log(`  comments duplicated   ${x.commentDuplicates}`);
  console.log(`  comments lost         ${x.commentsLost}`);
  console.log(
    `  recurring             ${x.series} series, ${x.occurrences} occurrences (${x.extended} added by the extender during the run)`,
  );
  console.log(`  occurrences twice     ${x.occurrenceDuplicates}`);
  console.log(`  occurrences missing   ${x.occurrencesMissing}`);
  console.log(
    `  normalized            ${r.posts} posts (posted ${r.posted}, failed ${r.failed}); ${r.renditions} renditions of ${r.sources} sources${r.failedRenditions.size ? ` (failed: ${[...r.failedRenditions.keys()].join('; ')})` : ''}`,
  );
  console.log(`  due before rendition  ${r.dueBeforeReady} (they waited for it)`);
  console.log(
    `  rendition on platform ${r.carriedRendition} of ${r.posted} posted; without it ${r.wrongMedia}, sources not made once ${r.notDeduplicated}, still waiting ${r.stillWaiting}`,
  );
  console.log(`  transcoder work dir   ${leftInWorkDir} entries left`);
  console.log(`  crashed processes     ${crashes.length ? crashes.join(', ') : 0}`);
  console.log(`  time                  ${seconds.toFixed(0)} s`);
  if (o.failedReasons.size) {
    console.log('  failure reasons:');
    for (const [reason, n] of [...o.failedReasons].sort((a, b) => b[1] - a[1]))
      console.log(`    ${String(n).padStart(5)}  ${reason}`);
  }
  if (x.commentFailedReasons.size) {
    console.log('  comment failure reasons:');
    for (const [reason, n] of [...x.commentFailedReasons].sort((a, b) => b[1] - a[1]))
      console.log(`    ${String(n).padStart(5)}  ${reason}`);
  }
  if (o.problems.size || x.problems.size || r.problems.size) {
    console.log('  problems:');
    for (const [kind, { count, examples }] of [...o.problems, ...x.problems, ...r.problems]) {
      console.log(`    ${String(count).padStart(5)}  ${kind}`);
      for (const e of examples) console.log(`           e.g. ${e}`);
    }
  }
  if (unexercised.length)
    console.log(
      `  faults that proved nothing (publishing was over, or they missed what they aim at): ${unexercised.join('; ')}`,
    );
  console.log(
    ok
      ? '\nPASS: every post ended once, nothing published twice, nothing lost, no outbox row left; queued posts in their slots, comments once, every occurrence once, one rendition per source, carried to the platform.'
      : '\nFAIL',
  );
  return ok;
}
