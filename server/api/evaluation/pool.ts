// Evaluations off the event loop, each under a budget of time and memory (issue 23): a small pool
// of worker threads (dist/evaluation-worker.js) with capped heaps. A request's evaluation leases
// one worker for as long as it runs; past the time budget the worker is terminated, past the
// memory budget it ends itself, and either way the request gets a 422 that says which budget, while
// the server goes on answering everything else. A new worker takes the place of a dead one.
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { ApiError } from '../errors.ts';
import type { Request, RequestKind, Requests } from './requests.ts';
import type { Reply } from './worker.ts';
import { distDir } from '../distDir.ts';
import type { EvaluationBudget } from '../options.ts';

/** Workers at once: the machine's other requests keep a core while two evaluations run. */
const POOL_SIZE = 2;
/** Evaluations waiting for a worker before more are refused with 503. */
const MAX_WAITING = 32;
/** An idle worker is ended after this long, giving its memory back. */
const IDLE_MS = 60_000;

export interface Lease {
  ask<K extends RequestKind>(kind: K, send: Requests[K]['send']): Promise<Requests[K]['answer']>;
}

export interface Evaluations {
  /** Runs `work` with a worker of its own, within the budget; `what` names the evaluation in a refusal. */
  run<T>(what: string, work: (lease: Lease) => Promise<T>): Promise<T>;
  /** One request, as a run of its own. */
  ask<K extends RequestKind>(what: string, kind: K, send: Requests[K]['send']): Promise<Requests[K]['answer']>;
  /** Ends every worker; evaluations still running fail. */
  close(): Promise<void>;
}

interface Slot {
  worker: Worker;
  /** The evaluation it runs now, as refusals name it. */
  what?: string;
  /** Why the worker can take no more requests (it ended, or was ended). */
  dead?: Error;
  pending?: { id: number; resolve: (answer: unknown) => void; reject: (error: Error) => void };
  idleTimer?: NodeJS.Timeout;
}

function overBudget(what: string | undefined, budget: string, flag: string): ApiError {
  return new ApiError(
    422,
    `${what ?? 'The evaluation'} was stopped: it went over its budget of ${budget} (the server's operator sets it with cev serve ${flag})`,
  );
}

export function evaluationPool(budget: EvaluationBudget, script = join(distDir, 'evaluation-worker.js')): Evaluations {
  const live = new Set<Slot>();
  const idle: Slot[] = [];
  const waiting: Array<(slot: Slot) => void> = [];
  let workers = 0;
  let nextId = 0;
  let closed = false;

  const end = (slot: Slot, reason: Error): void => {
    if (slot.dead !== undefined) return;
    slot.dead = reason;
    live.delete(slot);
    workers -= 1;
    clearTimeout(slot.idleTimer);
    const index = idle.indexOf(slot);
    if (index >= 0) idle.splice(index, 1);
    slot.pending?.reject(reason);
    slot.pending = undefined;
    void slot.worker.terminate();
  };

  const spawn = (): Slot => {
    const worker = new Worker(script, {
      resourceLimits: { maxOldGenerationSizeMb: budget.memoryMb, maxYoungGenerationSizeMb: 16 },
    });
    const slot: Slot = { worker };
    live.add(slot);
    workers += 1;
    worker.on('message', (reply: Reply) => {
      const pending = slot.pending;
      if (pending === undefined || pending.id !== reply.id) return;
      slot.pending = undefined;
      if ('answer' in reply) pending.resolve(reply.answer);
      else if ('refusal' in reply)
        pending.reject(new ApiError(reply.refusal.status, reply.refusal.message, reply.refusal.errors));
      else pending.reject(new Error(`evaluation failed in its worker: ${reply.failure}`));
    });
    worker.on('error', (error: Error & { code?: string }) => {
      const outOfMemory = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
      end(slot, outOfMemory ? overBudget(slot.what, `${budget.memoryMb} MB of memory`, '--evaluation-memory') : error);
    });
    worker.on('exit', (code) => end(slot, new Error(`evaluation worker exited with code ${code}`)));
    return slot;
  };

  const acquire = async (): Promise<Slot> => {
    if (closed) throw new ApiError(503, 'The server is stopping');
    const ready = idle.pop();
    if (ready !== undefined) {
      clearTimeout(ready.idleTimer);
      return ready;
    }
    if (workers < POOL_SIZE) return spawn();
    if (waiting.length >= MAX_WAITING)
      throw new ApiError(503, 'Too many evaluations are waiting for a worker; retry in a few seconds');
    return await new Promise<Slot>((resolve) => waiting.push(resolve));
  };

  const release = (slot: Slot): void => {
    if (slot.dead !== undefined) {
      // Its place goes to the next evaluation waiting, with a new worker.
      if (waiting.length > 0 && !closed && workers < POOL_SIZE) waiting.shift()!(spawn());
      return;
    }
    const next = waiting.shift();
    if (next !== undefined) return next(slot);
    slot.idleTimer = setTimeout(() => end(slot, new Error('idle')), IDLE_MS).unref();
    idle.push(slot);
  };

  const leaseOf = (slot: Slot): Lease => ({
    ask: (kind, send) =>
      new Promise((resolve, reject) => {
        if (slot.dead !== undefined) return reject(slot.dead);
        const id = ++nextId;
        slot.pending = { id, resolve: resolve, reject };
        slot.worker.postMessage({ id, request: { kind, ...send } as Request });
      }),
  });

  const run = async <T>(what: string, work: (lease: Lease) => Promise<T>): Promise<T> => {
    const slot = await acquire();
    slot.what = what;
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const refusal = overBudget(what, `${budget.seconds} s`, '--evaluation-timeout');
        end(slot, refusal);
        reject(refusal);
      }, budget.seconds * 1000);
    });
    const working = work(leaseOf(slot));
    // Whichever loses the race settles unobserved.
    working.catch(() => undefined);
    expired.catch(() => undefined);
    try {
      return await Promise.race([working, expired]);
    } finally {
      clearTimeout(timer);
      release(slot);
    }
  };

  return {
    run,
    ask: (what, kind, send) => run(what, (lease) => lease.ask(kind, send)),
    async close() {
      closed = true;
      const all = [...live];
      for (const slot of all) end(slot, new ApiError(503, 'The server is stopping'));
      await Promise.all(all.map((slot) => slot.worker.terminate()));
    },
  };
}
