/** How a backend writes a time (a map's `time`, `dates.format`, `now` and `future`). */
export type TimeFormat = 'iso' | 'yyyy-MM-dd HH:mm:ss' | 'yyyy-MM-dd' | 'epoch-seconds' | 'epoch-millis';
