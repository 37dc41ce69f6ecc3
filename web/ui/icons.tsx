// Stroke icons on a 24-unit grid; several menu entries share a shape on purpose.
const SHAPES = {
  home: 'M3 11l9-8 9 8M5 10v10h5v-6h4v6h5V10',
  server: 'M4 4h16v6H4zM4 14h16v6H4zM8 7h.01M8 17h.01',
  toggle: 'M7 7h10a5 5 0 010 10H7A5 5 0 017 7zM7 12h.01',
  arrows: 'M4 7h13l-3-3M20 17H7l3 3',
  gear: 'M12 15a3 3 0 100-6 3 3 0 000 6zM19 12a7 7 0 00-.1-1.2l2-1.6-2-3.4-2.4 1a7 7 0 00-2-1.2L14 3h-4l-.5 2.6a7 7 0 00-2 1.2l-2.4-1-2 3.4 2 1.6a7 7 0 000 2.4l-2 1.6 2 3.4 2.4-1a7 7 0 002 1.2L10 21h4l.5-2.6a7 7 0 002-1.2l2.4 1 2-3.4-2-1.6c.1-.4.1-.8.1-1.2z',
  user: 'M12 12a4 4 0 100-8 4 4 0 000 8zM4 21a8 8 0 0116 0',
  users: 'M9 11a4 4 0 100-8 4 4 0 000 8zM2 21a7 7 0 0114 0M16 3.5a4 4 0 010 7.5M18 14a7 7 0 014 7',
  list: 'M8 6h13M8 12h13M8 18h13M3 6h.01M3 12h.01M3 18h.01',
  key: 'M15 7a4 4 0 11-3.9 5H3v3h3v3h3v-3h2.1A4 4 0 0115 7z',
  doc: 'M6 2h9l5 5v15H6zM14 2v6h6M9 13h8M9 17h8',
  chart: 'M4 20V10M10 20V4M16 20v-7M22 20H2',
  ban: 'M12 21a9 9 0 100-18 9 9 0 000 18zM5.6 5.6l12.8 12.8',
  chat: 'M4 5h16v11H9l-5 4z',
  money: 'M3 6h18v12H3zM12 15a3 3 0 100-6 3 3 0 000 6z',
  check: 'M4 12l5 5L20 6',
  bell: 'M6 16V11a6 6 0 0112 0v5l2 2H4zM10 21h4',
  shield: 'M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6z',
  star: 'M12 3l2.8 5.7 6.2.9-4.5 4.4 1 6.2L12 17.3 6.5 20.2l1-6.2L3 9.6l6.2-.9z',
  link: 'M10 14a4 4 0 005.7 0l3-3a4 4 0 00-5.7-5.7l-1 1M14 10a4 4 0 00-5.7 0l-3 3a4 4 0 005.7 5.7l1-1',
  phone: 'M7 2h10v20H7zM11 18h2',
  refresh: 'M20 12a8 8 0 11-2.3-5.7M20 4v4h-4',
  bug: 'M8 8a4 4 0 018 0v8a4 4 0 01-8 0zM4 12h4M16 12h4M5 6l3 2M19 6l-3 2M5 19l3-2M19 19l-3-2',
  alert: 'M12 3l10 18H2zM12 10v4M12 17h.01',
  clock: 'M12 21a9 9 0 100-18 9 9 0 000 18zM12 7v5l3 3',
  calendar: 'M4 5h16v16H4zM4 10h16M8 3v4M16 3v4',
  smile: 'M12 21a9 9 0 100-18 9 9 0 000 18zM8 14s1.5 2 4 2 4-2 4-2M9 9h.01M15 9h.01',
  trash: 'M4 7h16M9 7V4h6v3M6 7l1 14h10l1-14',
  gift: 'M4 10h16v11H4zM2 6h20v4H2zM12 6v15M12 6S9 2 7 4s5 2 5 2 3-4 5-2-5 2-5 2',
} as const;

/** The icon of each menu entry, by name. */
const ICONS = {
  dashboard: 'home',
  deploy: 'server',
  monitor: 'chart',
  switch: 'toggle',
  migrate: 'arrows',
  system: 'gear',
  admin: 'user',
  log: 'doc',
  key: 'key',
  user: 'user',
  users: 'users',
  group: 'users',
  settings: 'gear',
  function: 'toggle',
  friend: 'user',
  avatar: 'smile',
  emoji: 'smile',
  shield: 'shield',
  list: 'list',
  announce: 'bell',
  ticket: 'key',
  words: 'alert',
  star: 'star',
  document: 'doc',
  chart: 'chart',
  ban: 'ban',
  clean: 'trash',
  speed: 'clock',
  online: 'users',
  login: 'key',
  message: 'chat',
  link: 'link',
  feedback: 'chat',
  money: 'money',
  calendar: 'calendar',
  wallet: 'money',
  check: 'check',
  redpack: 'gift',
  bill: 'doc',
  interface: 'list',
  push: 'bell',
  sms: 'phone',
  update: 'refresh',
  bug: 'bug',
  error: 'alert',
} as const satisfies Record<string, keyof typeof SHAPES>;

export type IconName = keyof typeof ICONS;

export function Icon({ name, className = 'h-5 w-5' }: { name: IconName | keyof typeof SHAPES; className?: string }) {
  const shape = name in SHAPES ? (name as keyof typeof SHAPES) : ICONS[name as IconName];
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      className={className}
      aria-hidden="true"
    >
      <path d={SHAPES[shape]} />
    </svg>
  );
}

const UI_SHAPES = {
  menu: 'M3 6h18M3 12h18M3 18h18',
  search: 'M11 18a7 7 0 100-14 7 7 0 000 14zM21 21l-5-5',
  expand: 'M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5',
  compress: 'M9 4v5H4M15 4v5h5M9 20v-5H4M15 20v-5h5',
  size: 'M4 7V4h16v3M9 20h6M12 4v16',
  globe: 'M12 21a9 9 0 100-18 9 9 0 000 18zM3 12h18M12 3a14 14 0 010 18M12 3a14 14 0 000 18',
  web: 'M3 5h18v14H3zM3 9h18',
  chevron: 'M9 6l6 6-6 6',
  down: 'M6 9l6 6 6-6',
  close: 'M6 6l12 12M18 6L6 18',
  gear: SHAPES.gear,
  play: 'M7 4l13 8-13 8z',
  pause: 'M7 4h4v16H7zM14 4h4v16h-4z',
} as const;

export function UiIcon({ name, className = 'h-5 w-5' }: { name: keyof typeof UI_SHAPES; className?: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      className={className}
      aria-hidden="true"
    >
      <path d={UI_SHAPES[name]} />
    </svg>
  );
}
