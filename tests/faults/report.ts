import type { Outcome } from './verify-outcome';

export interface RunSummary {
  outcome: Outcome;
  /** Each fault, with how many posts were still to publish when it struck. */
  faults: string[];
  /** Faults that struck once publishing was over: they proved nothing. */
  unexercised: string[];
  crashes: string[];
  seconds: number;
}

/** Prints the run's figures; answers whether it passed. */
export function report({ outcome: o, faults, unexercised, crashes, seconds }: RunSummary): boolean {
  const ok = o.duplicates === 0 && o.lost === 0 && o.disagreements === 0 && o.strandedOutbox === 0 && crashes.length === 0 && unexercised.length === 0;
  console.log('\n=== fault injection ===');
  console.log(`  posts                 ${o.posts} (posted ${o.posted}, failed ${o.failed}${o.unknownOutcome ? `, of which ${o.unknownOutcome} with an unknown outcome, live once` : ''})`);
  console.log(`  faults                ${faults.length}:`);
  for (const f of faults) console.log(`                          ${f}`);
  console.log(`  duplicates            ${o.duplicates}`);
  console.log(`  lost                  ${o.lost}`);
  console.log(`  state disagreements   ${o.disagreements}`);
  console.log(`  stranded outbox rows  ${o.strandedOutbox}`);
  console.log(`  announced again       ${o.redispatched} (no outcome within POSTS_REDISPATCH_AFTER_MS; the publisher's attempt log kept each safe)`);
  console.log(`  crashed processes     ${crashes.length ? crashes.join(', ') : 0}`);
  console.log(`  time                  ${seconds.toFixed(0)} s`);
  if (o.failedReasons.size) {
    console.log('  failure reasons:');
    for (const [reason, n] of [...o.failedReasons].sort((a, b) => b[1] - a[1])) console.log(`    ${String(n).padStart(5)}  ${reason}`);
  }
  if (o.problems.size) {
    console.log('  problems:');
    for (const [kind, { count, examples }] of o.problems) {
      console.log(`    ${String(count).padStart(5)}  ${kind}`);
      for (const e of examples) console.log(`           e.g. ${e}`);
    }
  }
  if (unexercised.length) console.log(`  publishing was over before: ${unexercised.join('; ')}`);
  console.log(ok ? '\nPASS: every post ended once, nothing published twice, nothing lost, no outbox row left.' : '\nFAIL');
  return ok;
}
