import type { Ejabberd, EjabberdAnswer } from './ejabberd.js';

/**
 * Seeds a test ejabberd through its own HTTP API, as an operator's data would be there: accounts
 * with passwords, vCards with nicknames, last activity, MUC rooms with titles and affiliations,
 * offline messages and a shared roster group for everyone. Names are deterministic (user0001,
 * room001), so tests and the browser walk can name what they expect; calls run with bounded
 * concurrency, so 200 accounts take seconds, not minutes.
 */
export interface SeedOptions {
  /** Registered accounts besides the admin and the helper's non-admin. Default 20. */
  users?: number;
  /** MUC rooms. Default 3. */
  rooms?: number;
  /** Offline messages to each of the first `offlineUsers` accounts. Default 2 to 2 accounts. */
  offlineMessages?: number;
  offlineUsers?: number;
  /** Create the shared roster group `everyone` with `@all@`. Default true. */
  sharedGroup?: boolean;
  /** Calls in flight at once. Default 8. */
  concurrency?: number;
}

export interface SeededUser {
  account: string;
  password: string;
  nickname: string;
  fullName: string;
  /** Seconds since the epoch set with set_last, or null: the account "never logged in". */
  lastSeen: number | null;
  lastStatus: string | null;
}

export interface SeededRoom {
  name: string;
  /** `name@<muc host>`, as muc_online_rooms lists it. */
  jid: string;
  title: string;
  description: string;
  owner: string;
  members: string[];
}

export interface Seeded {
  users: SeededUser[];
  rooms: SeededRoom[];
  /** Offline messages stored per account. */
  offline: Record<string, number>;
  sharedGroup: { id: string; label: string; description: string } | null;
}

// Varied on purpose: mixed case, accents, CJK, so search and sort have something to bite on.
const FIRST_NAMES = ['Ann', 'bruno', 'Chen', 'Dara', 'Émile', '王芳', 'Grace', 'Hiro', '佐藤', 'Ivan', 'Jo', 'Kaveh'];
/** 2026-01-01T00:00:00Z: last activity counts back from here, an hour a step. */
const LAST_SEEN_BASE = 1_767_225_600;

export const seededAccount = (index: number) => `user${String(index).padStart(4, '0')}`;
export const seededRoomName = (index: number) => `room${String(index).padStart(3, '0')}`;

/** Runs `task` over `items` with at most `limit` in flight; rejects on the first failure. */
export async function inBatches<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** A call that must succeed: 200 and, for a status command, `0`. */
async function must(server: Ejabberd, command: string, body: Record<string, unknown>): Promise<EjabberdAnswer> {
  const answer = await server.api(command, body);
  if (answer.status !== 200 || answer.json === 1) {
    throw new Error(
      `seeding: ${command} ${JSON.stringify(body)} answered ${answer.status} ${JSON.stringify(answer.json)}`,
    );
  }
  return answer;
}

export async function seedEjabberd(server: Ejabberd, options: SeedOptions = {}): Promise<Seeded> {
  const { host, mucHost } = server;
  const concurrency = options.concurrency ?? 8;
  const users: SeededUser[] = Array.from({ length: options.users ?? 20 }, (_, i) => {
    const index = i + 1;
    const first = FIRST_NAMES[i % FIRST_NAMES.length]!;
    // Every third account never logged in: get_last then says so, and the console shows no time.
    const seen = index % 3 !== 0;
    return {
      account: seededAccount(index),
      password: `pw-${seededAccount(index)}`,
      nickname: `${first} ${index}`,
      fullName: `${first} Example ${index}`,
      lastSeen: seen ? LAST_SEEN_BASE - index * 3600 : null,
      lastStatus: seen ? (index % 2 === 0 ? 'Gone home' : '') : null,
    };
  });

  await inBatches(users, concurrency, async (user) => {
    await must(server, 'register', { user: user.account, host, password: user.password });
    await must(server, 'set_vcard', { user: user.account, host, name: 'NICKNAME', content: user.nickname });
    await must(server, 'set_vcard', { user: user.account, host, name: 'FN', content: user.fullName });
    if (user.lastSeen !== null) {
      await must(server, 'set_last', { user: user.account, host, timestamp: user.lastSeen, status: user.lastStatus });
    }
  });

  const rooms: SeededRoom[] = Array.from({ length: options.rooms ?? 3 }, (_, i) => {
    const index = i + 1;
    const around = (k: number) => (users.length === 0 ? null : users[(i * 3 + k) % users.length]!.account);
    const members = [around(1), around(2)].filter((m): m is string => m !== null && m !== around(0));
    return {
      name: seededRoomName(index),
      jid: `${seededRoomName(index)}@${mucHost}`,
      title: `Room ${index}`,
      description: `Seeded room number ${index}`,
      owner: around(0) ?? server.admin.account,
      members: [...new Set(members)],
    };
  });
  await inBatches(rooms, concurrency, async (room) => {
    await must(server, 'create_room_with_opts', {
      name: room.name,
      service: mucHost,
      host,
      options: [
        { name: 'title', value: room.title },
        { name: 'description', value: room.description },
        // Persistent, so the room outlives its last occupant, as operators' rooms do.
        { name: 'persistent', value: 'true' },
        { name: 'public', value: 'true' },
      ],
    });
    for (const [account, affiliation] of [[room.owner, 'owner'], ...room.members.map((m) => [m, 'member'])]) {
      await must(server, 'set_room_affiliation', {
        name: room.name,
        service: mucHost,
        jid: `${account}@${host}`,
        affiliation,
      });
    }
  });

  const offline: Record<string, number> = {};
  const perUser = options.offlineMessages ?? 2;
  const offlineTargets = users.slice(0, options.offlineUsers ?? 2);
  await inBatches(offlineTargets, concurrency, async (user) => {
    for (let n = 1; n <= perUser; n++) {
      // chat and normal messages are stored offline; headline ones are not.
      await must(server, 'send_message', {
        type: 'chat',
        from: `${server.admin.account}@${host}`,
        to: `${user.account}@${host}`,
        subject: '',
        body: `Seeded message ${n} to ${user.account}`,
      });
    }
    offline[user.account] = perUser;
  });

  let sharedGroup: Seeded['sharedGroup'] = null;
  if (options.sharedGroup ?? true) {
    sharedGroup = { id: 'everyone', label: 'Everyone', description: 'Every account of the host' };
    await must(server, 'srg_create', {
      group: sharedGroup.id,
      host,
      label: sharedGroup.label,
      description: sharedGroup.description,
      display: sharedGroup.id,
    });
    await must(server, 'srg_user_add', { user: '@all@', host, group: sharedGroup.id, grouphost: host });
  }

  return { users, rooms, offline, sharedGroup };
}

/**
 * Many accounts for a bench, each with a nickname in its vCard (what the users list shows), and
 * nothing else: two calls per account (register, set_vcard), `concurrency` in flight. ejabberd's
 * API has no bulk register, and its import commands read files from the server's disk, which an
 * operator's data does not come through. Names as seedEjabberd's (user0001...).
 */
export async function seedAccounts(server: Ejabberd, count: number, concurrency = 32): Promise<SeededUser[]> {
  const users: SeededUser[] = Array.from({ length: count }, (_, i) => {
    const index = i + 1;
    const first = FIRST_NAMES[i % FIRST_NAMES.length]!;
    return {
      account: seededAccount(index),
      password: `pw-${seededAccount(index)}`,
      nickname: `${first} ${index}`,
      fullName: '',
      lastSeen: null,
      lastStatus: null,
    };
  });
  await inBatches(users, concurrency, async (user) => {
    await must(server, 'register', { user: user.account, host: server.host, password: user.password });
    await must(server, 'set_vcard', {
      user: user.account,
      host: server.host,
      name: 'NICKNAME',
      content: user.nickname,
    });
  });
  return users;
}
