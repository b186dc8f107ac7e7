// The evaluation worker (dist/evaluation-worker.js): a thread that answers the requests of
// requests.ts one at a time, so the server's event loop never runs them. Its heap is capped by the
// pool's resourceLimits and the pool terminates it past the time budget.
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { ApiError } from '../errors.ts';
import { answerOf, type Request } from './requests.ts';

/** An answer, or what went wrong, as the structured clone carries it (an ApiError's parts, or a message). */
export type Reply =
  | { id: number; answer: unknown }
  | { id: number; refusal: { status: number; message: string; errors?: Record<string, string> } }
  | { id: number; failure: string };

/** Nice value of an evaluation thread: on a busy machine the event loop, and so /ready, gets the CPU first. */
const EVALUATION_NICENESS = 10;

// On Linux each thread has a priority of its own (/proc/thread-self names its id); elsewhere the
// thread keeps the process's, and only the pool's size keeps a core for the event loop.
try {
  setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), EVALUATION_NICENESS);
} catch {
  // No per-thread priority here.
}

parentPort!.on('message', ({ id, request }: { id: number; request: Request }) => {
  let reply: Reply;
  try {
    reply = { id, answer: answerOf(request) };
  } catch (error) {
    reply =
      error instanceof ApiError
        ? { id, refusal: { status: error.statusCode, message: error.message, errors: error.errors } }
        : { id, failure: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  parentPort!.postMessage(reply);
});
