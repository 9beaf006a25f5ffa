export { PostWaiters, type OutcomeFacts, type Wakening } from './post-waiters';
export { isFinal, laidOver, waitForFinal, type WaitForFinal, type WaitOutcome } from './wait-for-final';
