/**
 * An OpenAPI document (3.x, or Swagger 2.0) read down to what a starting map needs: each
 * operation's method and path, its query and body parameter names, and the names of its answer's
 * members. Nothing else of the document is trusted: the probe checks every guess against answers.
 */

type Row = Record<string, unknown>;

export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  /** Query (and Swagger 2 formData) parameter names. */
  query: string[];
  /** The JSON or form body's member names, when the document names them. */
  body: string[];
  /** The body is a form (application/x-www-form-urlencoded), not JSON. */
  form: boolean;
  /** The success answer's schema, resolved (`$ref`s followed once each). */
  answer: unknown;
  summary: string;
}

export interface ApiDocument {
  operations: Operation[];
  /** How the document says a token travels: a header (with a "Bearer " prefix for bearer auth). */
  token: { header: string; prefix?: string } | null;
}

/** Where backends usually serve their document, tried in order when --openapi is not given. */
export const OPENAPI_PATHS = ['/openapi.json', '/v3/api-docs', '/swagger.json', '/api-docs', '/v2/api-docs'] as const;

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

const isRow = (v: unknown): v is Row => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Follows local `$ref`s ("#/components/schemas/User"), each at most once on a path (no cycles). */
function resolver(doc: Row) {
  const at = (ref: string): unknown => {
    if (!ref.startsWith('#/')) return undefined;
    let node: unknown = doc;
    for (const part of ref.slice(2).split('/'))
      node = isRow(node) ? node[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
    return node;
  };
  const resolve = (node: unknown, seen: ReadonlySet<string> = new Set()): unknown => {
    if (Array.isArray(node)) return node.map((n) => resolve(n, seen));
    if (!isRow(node)) return node;
    if (typeof node.$ref === 'string') {
      if (seen.has(node.$ref)) return {};
      return resolve(at(node.$ref), new Set([...seen, node.$ref]));
    }
    // allOf: the members of every part, as one object schema.
    if (Array.isArray(node.allOf)) {
      const parts = node.allOf.map((p) => resolve(p, seen)).filter(isRow);
      return {
        type: 'object',
        properties: Object.assign({}, ...parts.map((p) => (isRow(p.properties) ? p.properties : {}))),
      };
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, resolve(v, seen)]));
  };
  return resolve;
}

/** The member names of an object schema. */
export function propertiesOf(schema: unknown): Row {
  return isRow(schema) && isRow(schema.properties) ? schema.properties : {};
}

function successAnswer(op: Row): unknown {
  const responses = isRow(op.responses) ? op.responses : {};
  const ok = responses['200'] ?? responses['201'] ?? responses.default;
  if (!isRow(ok)) return undefined;
  if (isRow(ok.schema)) return ok.schema; // Swagger 2
  const content = isRow(ok.content) ? ok.content : {};
  const json = Object.entries(content).find(([type]) => type.includes('json'))?.[1];
  return isRow(json) ? json.schema : undefined;
}

/** Reads a parsed document; null when it is neither OpenAPI 3 nor Swagger 2. */
export function readApiDocument(json: unknown): ApiDocument | null {
  if (!isRow(json) || !isRow(json.paths) || (json.openapi === undefined && json.swagger === undefined)) return null;
  const resolve = resolver(json);
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(json.paths)) {
    if (!isRow(item)) continue;
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of METHODS) {
      const op = resolve(item[method]);
      if (!isRow(op)) continue;
      const params = [...shared, ...(Array.isArray(op.parameters) ? op.parameters : [])]
        .map((p) => resolve(p))
        .filter(isRow);
      const query = params.filter((p) => p.in === 'query' || p.in === 'formData').map((p) => String(p.name));
      let body: string[] = [];
      let form = params.some((p) => p.in === 'formData');
      const swaggerBody = params.find((p) => p.in === 'body');
      if (swaggerBody) body = Object.keys(propertiesOf(swaggerBody.schema));
      const content = isRow(op.requestBody) && isRow(op.requestBody.content) ? op.requestBody.content : {};
      for (const [type, media] of Object.entries(content)) {
        if (!isRow(media)) continue;
        body = Object.keys(propertiesOf(media.schema));
        form = type.includes('x-www-form-urlencoded');
        if (type.includes('json')) break;
      }
      operations.push({
        method: method.toUpperCase() as Operation['method'],
        path,
        query,
        body,
        form: form && !swaggerBody,
        answer: successAnswer(op),
        summary: typeof op.summary === 'string' ? op.summary : '',
      });
    }
  }
  return { operations, token: tokenTravel(json) };
}

/** The document's security scheme: a bearer token, or an API key in a named header. */
function tokenTravel(doc: Row): ApiDocument['token'] {
  const components = isRow(doc.components) ? doc.components : {};
  const schemes = isRow(components.securitySchemes)
    ? components.securitySchemes
    : isRow(doc.securityDefinitions)
      ? doc.securityDefinitions
      : {};
  for (const scheme of Object.values(schemes)) {
    if (!isRow(scheme)) continue;
    if (scheme.type === 'http' && String(scheme.scheme).toLowerCase() === 'bearer')
      return { header: 'Authorization', prefix: 'Bearer ' };
    if (scheme.type === 'apiKey' && scheme.in === 'header' && typeof scheme.name === 'string')
      return { header: scheme.name };
  }
  return null;
}
