import { describe, expect, it } from 'vitest';
import {
  MAX_VIEWS,
  close,
  closeAll,
  closeOthers,
  named,
  neighbourOf,
  parseStored,
  serialise,
  visit,
  withAffixed,
  type VisitedView,
} from '../../web/app/layout/visited-views.js';

const dashboard: VisitedView = { path: '/dashboard', fullPath: '/dashboard', title: 'route.dashboard', affix: true };
const users: VisitedView = { path: '/userpage/userset', fullPath: '/userpage/userset', title: 'route.userset' };
const groups: VisitedView = { path: '/groupset', fullPath: '/groupset', title: 'route.groupset' };
const paths = (views: readonly VisitedView[]) => views.map((v) => v.path);

describe('the tab bar model', () => {
  it('opens a page once, keeps where it was left, and keeps the order pages were first opened in', () => {
    let views = visit([dashboard], users);
    views = visit(views, groups);
    views = visit(views, { ...users, fullPath: '/userpage/userset?pageNum=3' });
    expect(paths(views)).toEqual(['/dashboard', '/userpage/userset', '/groupset']);
    expect(views[1]!.fullPath).toBe('/userpage/userset?pageNum=3');
  });

  it('closes a page that is not kept as soon as another opens', () => {
    const notFound: VisitedView = { path: '/error/404', fullPath: '/error/404', title: 'route.page404', noCache: true };
    let views = visit([dashboard, users], notFound);
    expect(paths(views)).toContain('/error/404');
    views = visit(views, notFound);
    expect(paths(views)).toContain('/error/404');
    views = visit(views, groups);
    expect(paths(views)).toEqual(['/dashboard', '/userpage/userset', '/groupset']);
  });

  it('keeps a record tab named once read, and drops the name when the tab shows another record', () => {
    const record: VisitedView = {
      path: '/userpage/userset/10001',
      fullPath: '/userpage/userset/10001',
      title: 'route.userset',
      record: '10001',
    };
    let views = named(visit([dashboard], record), '/userpage/userset/10001', 'Alice');
    expect(views[1]!.name).toBe('Alice');
    views = visit(views, { ...record, fullPath: '/userpage/userset/10001?tab=wallet' });
    expect(views[1]!.name).toBe('Alice');
    // Not a record's page: nothing to name.
    expect(named(views, '/dashboard', 'x')).toBe(views);
  });

  it('holds at most MAX_VIEWS tabs, dropping the oldest that is neither fixed nor the one opened', () => {
    let views: VisitedView[] = [dashboard];
    for (let i = 0; i < MAX_VIEWS + 5; i++)
      views = visit(views, { path: `/p${i}`, fullPath: `/p${i}`, title: 'route.userset' });
    expect(views).toHaveLength(MAX_VIEWS);
    expect(views[0]).toBe(dashboard);
    expect(views[1]!.path).toBe('/p6');
    expect(views.at(-1)!.path).toBe(`/p${MAX_VIEWS + 4}`);
  });

  it('never closes a fixed tab, and puts fixed tabs first when missing', () => {
    const views = [dashboard, users, groups];
    expect(paths(close(views, '/dashboard'))).toEqual(paths(views));
    expect(paths(close(views, '/groupset'))).toEqual(['/dashboard', '/userpage/userset']);
    expect(paths(closeOthers(views, '/groupset'))).toEqual(['/dashboard', '/groupset']);
    expect(paths(closeAll(views))).toEqual(['/dashboard']);
    expect(paths(withAffixed([users], [dashboard]))).toEqual(['/dashboard', '/userpage/userset']);
    expect(withAffixed(views, [dashboard])).toHaveLength(3);
  });

  it('goes to the tab on the right of a closed one, else the one on its left', () => {
    const views = [dashboard, users, groups];
    expect(neighbourOf(views, '/userpage/userset')).toBe(groups);
    expect(neighbourOf(views, '/groupset')).toBe(users);
    expect(neighbourOf([users], '/userpage/userset')).toBeNull();
  });

  it("reads back only this administrator's tabs, and only addresses of the console", () => {
    const text = serialise([dashboard, users], 'admin');
    expect(paths(parseStored(text, 'admin'))).toEqual(['/dashboard', '/userpage/userset']);
    expect(parseStored(text, 'operator')).toEqual([]);
    expect(parseStored('{not json', 'admin')).toEqual([]);
    expect(parseStored(null, 'admin')).toEqual([]);
    const hostile = JSON.stringify({
      account: 'admin',
      views: [
        { path: '/x', fullPath: '//evil.example/x', title: 'route.userset' },
        { path: 'https://evil.example', fullPath: 'https://evil.example', title: 'route.userset' },
        { path: '/y', fullPath: '/elsewhere', title: 'route.userset' },
        { path: '/z', fullPath: '/z?pageNum=2', title: 'route.userset', name: 3 },
        { path: '/ok', fullPath: '/ok?pageNum=2', title: 'route.userset' },
      ],
    });
    expect(paths(parseStored(hostile, 'admin'))).toEqual(['/ok']);
  });
});
