/** The backend map as written in its JSON file (validated against backend-map.schema.json). */

export type TimeFormat = 'iso' | 'yyyy-MM-dd HH:mm:ss' | 'yyyy-MM-dd' | 'epoch-seconds' | 'epoch-millis';
export type Scalar = string | number | boolean | null;

export interface EnvelopeMap {
  code?: string;
  message?: string;
  data?: string;
  success?: (number | string)[];
}

export interface FieldMap {
  name?: string;
  absent?: true;
  money?: 'yuan' | 'cent';
  values?: Record<string, Scalar>;
  time?: TimeFormat;
}

export interface CallMap {
  unsupported?: true;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path?: string;
  in?: 'query' | 'json' | 'form';
  params?: Record<string, string>;
  body?: string;
  sort?: { field: string; order: string; asc?: Scalar; desc?: Scalar };
  dates?: { from?: string; to?: string; format?: TimeFormat };
  extra?: Record<string, Scalar>;
  answer?: EnvelopeMap & { list?: string; total?: string; totalHeader?: string; totals?: string; record?: string };
}

export type CallName = 'list' | 'detail' | 'create' | 'update' | 'delete' | 'config' | 'saveConfig' | 'preview';

export interface ResourceMap {
  unsupported?: true;
  fields?: Record<string, FieldMap>;
  calls?: Partial<Record<CallName, CallMap>>;
  actions?: Record<string, CallMap>;
}

export interface BackendMapFile {
  description?: string;
  timeZone?: string;
  answer?: EnvelopeMap;
  resources?: Record<string, ResourceMap>;
}
