export type DecodeErrorReason =
  'no_key' | 'bad_base64' | 'bad_ciphertext' | 'bad_padding' | 'bad_compression' | 'too_large' | 'not_json';

const MESSAGES: Record<DecodeErrorReason, string> = {
  no_key: 'no RESPONSE_AES_KEY is configured',
  bad_base64: 'the body is not base64 text',
  bad_ciphertext: 'the ciphertext length is not a whole number of AES blocks',
  bad_padding: 'the padding is wrong (wrong key, IV or mode?)',
  bad_compression: 'the decrypted body is not a valid gzip, zlib or deflate stream',
  too_large: 'the decoded body is larger than the decode limit',
  not_json: 'the decoded body is not JSON',
};

/** The only error the decoder ever throws. */
export class DecodeError extends Error {
  constructor(readonly reason: DecodeErrorReason) {
    super(MESSAGES[reason]);
    this.name = 'DecodeError';
  }
}
