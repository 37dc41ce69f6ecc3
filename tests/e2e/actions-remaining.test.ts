import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { errorToasts, rowCommand, useHarness } from './harness.js';

// The contract actions no other browser test drives, each run from its screen as an administrator
// would, with the sandbox's data read after every step.
const h = useHarness();
const store = () => h.sandbox.app.sandbox;

const rowOf = (p: Page, id: number) => p.locator(`[data-testid="list-table"] tbody tr[data-row-id="${id}"]`);
const confirm = (p: Page) => p.getByTestId('confirm-dialog');

let page: Page;
beforeAll(async () => {
  page = (await h.pageAs('admin')).page;
});

describe('authenticator bindings: reset and unbind', () => {
  it('resets a binding with a new secret that waits for a code, keeping the old one meanwhile', async () => {
    const account = store().accounts.find((a) => a.googleBound && a.account !== 'admin')!;
    const oldSecret = account.googleSecret;
    await page.goto(`/system/googleverify?googleBound=true`);
    await rowCommand(rowOf(page, account.id), '[data-action="reset"]');
    // Destructive: asked first, naming the account.
    expect(await confirm(page).textContent()).toContain(account.account);
    await confirm(page).getByTestId('confirm-yes').click();
    const result = page.getByTestId('result-dialog');
    const secret = (await result.locator('[data-result-key="secret"]').textContent())!;
    expect(secret).not.toBe(oldSecret);
    expect(store().accounts.get(account.id)).toMatchObject({
      googleBound: true,
      googleSecret: oldSecret,
      googlePendingSecret: secret,
    });
    await result.getByRole('button', { name: 'Close' }).click();
    await result.waitFor({ state: 'detached' });
    // Closed without a code: the old binding still holds.
    expect(store().accounts.get(account.id)).toMatchObject({ googleBound: true, googleSecret: oldSecret });
  });

  it('unbinds an authenticator after the confirmation', async () => {
    const account = store().accounts.find((a) => a.googleBound && a.account !== 'admin')!;
    await page.goto(`/system/googleverify?googleBound=true`);
    await rowCommand(rowOf(page, account.id), '[data-action="unbind"]');
    expect(await confirm(page).textContent()).toContain(account.account);
    await confirm(page).getByTestId('confirm-yes').click();
    await expect.poll(() => store().accounts.get(account.id)!.googleBound).toBe(false);
    expect(store().accounts.get(account.id)).toMatchObject({
      googleSecret: null,
      googlePendingSecret: null,
      boundTime: null,
    });
    // The list filtered to bound accounts lets it go.
    await expect.poll(() => rowOf(page, account.id).count()).toBe(0);
  });
});

describe('chat users: privilege', () => {
  it('marks a user privileged and takes it back, each at once with its toast', async () => {
    const user = store().users.find((u) => !u.privileged && u.status === 'normal')!;
    await page.goto(`/userpage/userset?keyword=${encodeURIComponent(user.account)}`);
    await rowCommand(rowOf(page, user.id), '[data-action="setPrivileged"]');
    await page.locator('[data-toast="success"]', { hasText: `Marked ${user.account} as privileged` }).waitFor();
    expect(store().users.get(user.id)!.privileged).toBe(true);

    // The row now offers the reverse.
    await rowCommand(rowOf(page, user.id), '[data-action="unsetPrivileged"]');
    await page.locator('[data-toast="success"]', { hasText: `${user.account} is no longer privileged` }).waitFor();
    expect(store().users.get(user.id)!.privileged).toBe(false);
    expect(await errorToasts(page)).toEqual([]);
  });
});

describe('groups: mute, unmute and dissolve', () => {
  it('mutes and unmutes everyone in a group, then dissolves it after the confirmation', async () => {
    const group = store().groups.find((g) => g.status === 'normal' && !g.muted && g.memberCount > 0)!;
    await page.goto(`/groupset?keyword=${encodeURIComponent(String(group.id))}`);
    await rowCommand(rowOf(page, group.id), '[data-action="muteAll"]');
    await page.locator('[data-toast="success"]', { hasText: `Muted everyone in ${group.name}` }).waitFor();
    expect(store().groups.get(group.id)!.muted).toBe(true);

    await rowCommand(rowOf(page, group.id), '[data-action="unmuteAll"]');
    await page.locator('[data-toast="success"]', { hasText: `Unmuted everyone in ${group.name}` }).waitFor();
    expect(store().groups.get(group.id)!.muted).toBe(false);

    await rowCommand(rowOf(page, group.id), '[data-action="dissolve"]');
    expect(await confirm(page).textContent()).toContain(group.name);
    await confirm(page).getByTestId('confirm-yes').click();
    await expect.poll(() => store().groups.get(group.id)!.status).toBe('dissolved');
    expect(store().groups.get(group.id)!.memberCount).toBe(0);
    expect(store().members.get(group.id)).toEqual([]);
    expect(await errorToasts(page)).toEqual([]);
  });
});

describe('suggestions and SMS', () => {
  it('marks a pending suggestion handled, by the administrator who did it', async () => {
    await page.goto('/suggestion?state=pending');
    const first = page.locator('[data-testid="list-table"] tbody tr').first();
    await first.waitFor();
    const suggestion = store().suggestions.get(Number(await first.getAttribute('data-row-id')))!;
    expect(suggestion.state).toBe('pending');
    await rowCommand(rowOf(page, suggestion.id), '[data-action="markHandled"]');
    await expect.poll(() => store().suggestions.get(suggestion.id)!.state).toBe('handled');
    expect(store().suggestions.get(suggestion.id)!.handledBy).toBe('admin');
    // No longer pending, so the filtered list lets it go.
    await expect.poll(() => rowOf(page, suggestion.id).count()).toBe(0);
  });

  it('sends a test message and shows the provider request id; keeps the dialog with the backend reason for a bad number', async () => {
    store().settings.smsConfig = { ...store().settings.smsConfig, enabled: true };
    await page.goto('/shortmessage/message');
    await page.getByTestId('settings-form').waitFor();
    await page.locator('[data-action="testMessage"]').click();
    const dialog = page.getByTestId('form-dialog');
    await dialog.locator('input[data-field="phone"]').fill('+34 600-123-456');
    await dialog.getByRole('button', { name: 'Send a test message' }).click();
    const result = page.getByTestId('result-dialog');
    expect(await result.locator('[data-result-key="requestId"]').textContent()).toMatch(
      /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/,
    );
    await result.getByRole('button', { name: 'Close' }).click();
    await result.waitFor({ state: 'detached' });

    await page.locator('[data-action="testMessage"]').click();
    await dialog.locator('input[data-field="phone"]').fill('12ab');
    await dialog.getByRole('button', { name: 'Send a test message' }).click();
    // Refused: the dialog stays with the backend's reason, and what was typed.
    expect(await dialog.getByTestId('form-server-error').textContent()).toContain('手机号格式错误');
    expect(await dialog.locator('input[data-field="phone"]').inputValue()).toBe('12ab');
  });
});
