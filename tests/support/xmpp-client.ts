import { connect, type Socket } from 'node:net';
import { Waiters } from './wait.js';

/**
 * The least XMPP client that makes an account "online" on a test ejabberd: plain TCP to its c2s
 * port (the test config has no TLS), SASL PLAIN, a bound resource, available presence, and
 * optionally a seat in a MUC room. Enough for sessions, kicks and occupants to exist; it reads
 * the stream as text and waits for the answers it needs by pattern, which is all a test needs.
 */
export interface XmppOptions {
  port: number;
  host: string;
  account: string;
  password: string;
  resource?: string;
  timeoutMs?: number;
}

const escape = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/'/g, '&apos;')
    .replace(/"/g, '&quot;');

export class XmppClient {
  /** Everything the server sent, as text. */
  received = '';
  closed = false;
  readonly resource: string;
  private cursor = 0;
  private readonly waiters = new Waiters();
  private readonly socket: Socket;
  private readonly closedPromise: Promise<void>;

  private constructor(private readonly options: XmppOptions) {
    this.resource = options.resource ?? 'console-test';
    this.socket = connect(options.port, '127.0.0.1');
    this.socket.setEncoding('utf8');
    this.socket.on('data', (chunk: string) => {
      this.received += chunk;
      this.waiters.notify();
    });
    this.closedPromise = new Promise((resolve) => {
      this.socket.on('close', () => {
        this.closed = true;
        this.waiters.notify();
        resolve();
      });
    });
    this.socket.on('error', () => {
      // surfaces as close; the waiter names what did not come
    });
  }

  get jid(): string {
    return `${this.options.account}@${this.options.host}/${this.resource}`;
  }

  /** Connects, logs in and sends available presence: the account is then online. */
  static async connect(options: XmppOptions): Promise<XmppClient> {
    const client = new XmppClient(options);
    const { host } = options;
    client.openStream();
    await client.next(/<\/stream:features>/, 'the stream features');
    const plain = Buffer.from(`\0${options.account}\0${options.password}`).toString('base64');
    client.send(`<auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='PLAIN'>${plain}</auth>`);
    const sasl = await client.next(
      /<success[^>]*(\/>|>[\s\S]*?<\/success>)|<failure[\s\S]*?<\/failure>/,
      'the SASL answer',
    );
    if (sasl.startsWith('<failure')) {
      client.socket.destroy();
      throw new Error(`XMPP login of ${options.account}@${host} refused: ${sasl}`);
    }
    client.openStream();
    await client.next(/<\/stream:features>/, 'the stream features after login');
    client.send(
      `<iq type='set' id='bind1'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'><resource>${escape(client.resource)}</resource></bind></iq>`,
    );
    await client.next(/<iq[^>]*id=['"]bind1['"][\s\S]*?<\/iq>|<iq[^>]*id=['"]bind1['"][^>]*\/>/, 'the bound resource');
    client.send(`<iq type='set' id='sess1'><session xmlns='urn:ietf:params:xml:ns:xmpp-session'/></iq>`);
    await client.next(/<iq[^>]*id=['"]sess1['"]/, 'the session');
    client.send('<presence/>');
    return client;
  }

  /** Enters a MUC room (`name@service`) under `nick`; resolves once the room shows us to ourselves (status 110). */
  async joinRoom(roomJid: string, nick: string): Promise<void> {
    this.send(`<presence to='${escape(`${roomJid}/${nick}`)}'><x xmlns='http://jabber.org/protocol/muc'/></presence>`);
    await this.next(/<status code=['"]110['"]\/>/, `the seat in ${roomJid}`);
  }

  send(xml: string): void {
    this.socket.write(xml);
  }

  /** Resolves when the server closed the connection (a kick, a ban, a stop). */
  async waitClosed(timeoutMs = this.options.timeoutMs ?? 30_000): Promise<void> {
    await this.waiters.until(() => this.closed, {
      timeoutMs,
      timedOut: () => new Error(`${this.jid} was not disconnected\n${this.received.slice(-2000)}`),
    });
  }

  /** Logs out: unavailable presence and the stream's end, then waits for the socket to close. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.socket.end(`<presence type='unavailable'/></stream:stream>`);
    const timer = setTimeout(() => this.socket.destroy(), 5_000);
    await this.closedPromise;
    clearTimeout(timer);
  }

  private openStream(): void {
    this.send(
      `<?xml version='1.0'?><stream:stream to='${escape(this.options.host)}' xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' version='1.0'>`,
    );
  }

  /** The first match of `pattern` after what earlier calls consumed. */
  private async next(pattern: RegExp, what: string): Promise<string> {
    let found: RegExpExecArray | null = null;
    await this.waiters.until(
      () => {
        found = pattern.exec(this.received.slice(this.cursor));
        return found !== null;
      },
      {
        timeoutMs: this.options.timeoutMs ?? 30_000,
        timedOut: () => new Error(`timed out waiting for ${what} from XMPP\n${this.received.slice(-2000)}`),
        hopeless: () =>
          this.closed ? new Error(`the XMPP stream closed before ${what}\n${this.received.slice(-2000)}`) : null,
      },
    );
    const match = found as unknown as RegExpExecArray;
    this.cursor += match.index + match[0].length;
    return match[0];
  }
}
