import type { FastifyError, FastifyInstance } from 'fastify';
import { GATEWAY_ERRORS, GatewayError, errorBody, type GatewayErrorName } from '../errors.js';

/** The catalogue's name for a client error Fastify raised with this status. */
const CLIENT_ERROR_NAMES: Record<number, GatewayErrorName> = {
  // The file server's refusal of a folder, a dot file or an alias spelling of a path: to the
  // client there is simply no such file, and the catalogue's FORBIDDEN means a missing permission.
  403: 'NOT_FOUND',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  408: 'REQUEST_TIMEOUT',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  431: 'HEADERS_TOO_LARGE',
};
import { countUpstreamError } from './metrics.js';
import { withoutUrlSecrets } from './url-secrets.js';

/**
 * Every error the gateway answers goes out in the backend's envelope, so the UI's one error path
 * handles gateway failures like backend ones.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | GatewayError, request, reply) => {
    if (error instanceof GatewayError) {
      // The gateway's own calls to the backend (login, say) fail here; proxied ones in the proxy.
      countUpstreamError(app.metrics, error);
      if (error.status >= 500)
        request.log.warn({ err: error.cause ?? error, path: withoutUrlSecrets(request.url) }, error.message);
      return reply.code(error.status).send(error.toBody());
    }
    if (error.validation) {
      return reply.code(400).send(errorBody('BAD_REQUEST', `${errorBody('BAD_REQUEST').msg}: ${error.message}`));
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413) {
      return reply.code(413).send(errorBody('BODY_TOO_LARGE'));
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      // Malformed JSON, a forbidden file path, an unsupported media type: the client's fault,
      // said plainly with the status Fastify chose.
      // The status is the catalogue's for the name, so a code never says one thing and its name another.
      const name = CLIENT_ERROR_NAMES[error.statusCode] ?? 'BAD_REQUEST';
      const status = GATEWAY_ERRORS[name].status;
      return reply
        .code(status)
        .send({ code: status, msg: `${GATEWAY_ERRORS[name].msg}: ${error.message}`, error: name });
    }
    request.log.error({ err: error }, 'unexpected gateway error');
    return reply.code(500).send(errorBody('INTERNAL'));
  });
}
