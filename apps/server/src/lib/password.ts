import { hash, verify } from '@node-rs/argon2';
import { availableParallelism } from 'node:os';

/** Algorithm.Argon2id; the package's enum is a const enum, which isolated modules cannot read. */
const ARGON2ID = 2;

/** argon2id with OWASP's minimum: m=19 MiB, t=2, p=1. */
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * Every hash takes 19 MiB and a core for tens of milliseconds. However many requests ask at once
 * (a burst of logins, someone hammering a password check), at most this many hashes run together;
 * the rest wait their turn. Memory stays bounded and the event loop keeps serving other calls.
 */
const MAX_CONCURRENT = Math.max(2, availableParallelism());
let running = 0;
const waiting: (() => void)[] = [];

async function limited<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT) await new Promise<void>((resolve) => waiting.push(resolve));
  else running += 1;
  try {
    return await work();
  } finally {
    // The slot passes straight to the next waiter, or is freed.
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

export function hashPassword(password: string): Promise<string> {
  return limited(() => hash(password, OPTIONS));
}

export async function verifyPassword(hashed: string, password: string): Promise<boolean> {
  try {
    return await limited(() => verify(hashed, password));
  } catch {
    return false;
  }
}
