import type en from './en.js';

const es = {
  'views.loading': 'Cargando las vistas guardadas…',
  'views.loadFailed': 'No se pudieron cargar las vistas guardadas',
  'views.retry': 'Reintentar',
  'views.saving': 'Guardando…',
  'views.saveFailed': 'No se pudo guardar la vista',
  'views.deleteFailed': 'No se pudo eliminar la vista',
  'views.full': 'Esta lista ya tiene {{max}} vistas guardadas: elimine una primero',
  'views.fullAdmin': 'Ya guarda {{max}} vistas en todas las listas: elimine una primero',
  'views.uploaded_one': '{{count}} vista guardada en este navegador se conserva ahora con su cuenta',
  'views.uploaded_other': '{{count}} vistas guardadas en este navegador se conservan ahora con su cuenta',
} satisfies Record<keyof typeof en, string>;

export default es;
