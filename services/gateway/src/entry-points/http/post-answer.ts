import type { Request, Response } from 'express';
import type { Post, Principal } from '@postbus/contracts';
import type { PostWaiters } from '@postbus/service';
import { answeredNotModifiedByTag, etagOfJson } from './conditional-get';
import type { FinalAnswer, FinalPosts } from './final-posts';
import { FINAL_HEADER, isFinal, readWhenFinal, waitQuery } from './wait-for-outcome';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * GET /api/v1/posts/{id}: a settled post this process already answered is answered again from
 * memory (no call to posts, whether or not the caller waits); otherwise the post is read (with
 * ?waitFor=final, once final or when the wait ends) and kept if it is settled and stored. Every answer
 * carries Postbus-Final and an ETag met by If-None-Match with 304.
 */
export async function answerPost(opts: {
  req: Request;
  res: Response;
  principal: Principal;
  waiters: PostWaiters;
  finals: FinalPosts;
  read: () => Promise<Post>;
}): Promise<void> {
  const { req, res, principal, finals } = opts;
  const postId = req.params.id as string;
  const wait = waitQuery(req);
  const kept = finals.answerFor(principal, postId);
  if (kept) return send(req, res, kept, true);
  const outcome = wait
    ? await readWhenFinal(opts.waiters, postId, wait.waitMs, res, opts.read)
    : { post: await opts.read(), stored: true };
  if (outcome === undefined) return; // the caller went away while waiting
  const { post, stored } = outcome;
  const json = JSON.stringify(post);
  const answer = { json, etag: etagOfJson(json) };
  // An answer laid from a result event's facts is not the stored post: it is not kept.
  if (stored) finals.keep(principal, post, answer);
  send(req, res, answer, isFinal(post));
}

function send(req: Request, res: Response, answer: FinalAnswer, final: boolean): void {
  res.setHeader(FINAL_HEADER, String(final));
  if (answeredNotModifiedByTag(req, res, answer.etag)) return;
  res.status(200).setHeader('Content-Type', JSON_TYPE).send(answer.json);
}
