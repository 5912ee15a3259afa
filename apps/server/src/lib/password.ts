import { hash, verify } from '@node-rs/argon2';

/** Algorithm.Argon2id; the package's enum is a const enum, which isolated modules cannot read. */
const ARGON2ID = 2;

/** argon2id with OWASP's minimum: m=19 MiB, t=2, p=1 (DESIGN §4). */
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(hashed: string, password: string): Promise<boolean> {
  try {
    return await verify(hashed, password);
  } catch {
    return false;
  }
}
