import type en from './en.js';

const es = {
  'relogin.title': 'Volver a iniciar sesión',
  'relogin.intro': 'Vuelva a iniciar sesión para continuar: lo que escribió en esta página se conserva.',
  'relogin.submit': 'Iniciar sesión y continuar',
  'relogin.done': 'Sesión iniciada de nuevo',
  'relogin.otherAccount': 'Ha iniciado sesión como otro administrador: la página se recarga',
} satisfies Record<keyof typeof en, string>;

export default es;
