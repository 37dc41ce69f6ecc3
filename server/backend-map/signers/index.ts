import { shiku } from './shiku.js';
import type { Signer } from './signer.js';

export type { Signature, Signer, SigningInput, SignedSession } from './signer.js';

/**
 * The signers a map may name in `auth.signer.name`. A new one is a module of this folder (with a
 * unit test) added here.
 */
export const SIGNERS: ReadonlyMap<string, Signer> = new Map([shiku].map((signer) => [signer.name, signer]));
