import { readFileSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';

/** A kB figure of /proc/<pid>/status (VmRSS, VmHWM), in bytes; null when unreadable. */
export function procStatusBytes(pid: number | 'self', field: 'VmRSS' | 'VmHWM'): number | null {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(text);
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** The soft open-files limit of a process, or null when unreadable. */
export function openFilesLimit(pid: number | 'self'): number | null {
  try {
    const match = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync(`/proc/${pid}/limits`, 'utf8'));
    if (!match) return null;
    return match[1] === 'unlimited' ? Number.MAX_SAFE_INTEGER : Number(match[1]);
  } catch {
    return null;
  }
}

/** Resets the peak RSS (VmHWM) of a process we own, so a later reading is the peak of what follows. */
export function resetPeakRss(pid: number | 'self'): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

export interface FdCounts {
  total: number;
  sockets: number;
  /** Sockets by peer: established TCP to this remote port. */
  byRemotePort: Map<number, number>;
  /** TCP sockets in LISTEN. */
  listening: number;
}

const TCP_ESTABLISHED = '01';
const TCP_LISTEN = '0A';

/** inode -> {remote port, state} of every TCP socket the process's network namespace knows. */
function tcpSockets(pid: number): Map<string, { remotePort: number; state: string }> {
  const out = new Map<string, { remotePort: number; state: string }>();
  for (const file of ['tcp', 'tcp6']) {
    let text: string;
    try {
      text = readFileSync(`/proc/${pid}/net/${file}`, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const parts = line.trim().split(/\s+/);
      if (parts.length < 10) continue;
      const remote = parts[2]!;
      const state = parts[3]!;
      const inode = parts[9]!;
      out.set(inode, { remotePort: parseInt(remote.split(':')[1] ?? '0', 16), state });
    }
  }
  return out;
}

/** Open file descriptors of a process, with its TCP sockets told apart by peer port. */
export function countFds(pid: number): FdCounts {
  const tcp = tcpSockets(pid);
  const counts: FdCounts = { total: 0, sockets: 0, byRemotePort: new Map(), listening: 0 };
  let names: string[];
  try {
    names = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return counts;
  }
  for (const name of names) {
    let target: string;
    try {
      target = readlinkSync(`/proc/${pid}/fd/${name}`);
    } catch {
      continue; // closed between readdir and readlink
    }
    counts.total++;
    const match = /^socket:\[(\d+)\]$/.exec(target);
    if (!match) continue;
    counts.sockets++;
    const socket = tcp.get(match[1]!);
    if (!socket) continue;
    if (socket.state === TCP_LISTEN) counts.listening++;
    else if (socket.state === TCP_ESTABLISHED) {
      counts.byRemotePort.set(socket.remotePort, (counts.byRemotePort.get(socket.remotePort) ?? 0) + 1);
    }
  }
  return counts;
}
