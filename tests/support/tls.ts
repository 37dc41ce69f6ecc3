import { execFileSync } from 'node:child_process';
import path from 'node:path';

/** Paths of a key and a certificate written by selfSignedCertificate(). */
export interface CertificateFiles {
  key: string;
  cert: string;
}

/**
 * A throw-away self-signed certificate for localhost (and 127.0.0.1) made with openssl, valid for
 * a day, written into `folder` as `<name>.key` and `<name>.crt`. Tests that need TLS check for
 * openssl first (skipWithout).
 */
export function selfSignedCertificate(folder: string, name: string): CertificateFiles {
  const key = path.join(folder, `${name}.key`);
  const cert = path.join(folder, `${name}.crt`);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  return { key, cert };
}
