import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, RESOURCES, formFields, type ListResource } from '../../server/contract/index.js';

describe('the resource contract', () => {
  it('gives every resource a unique id and path under its permission', () => {
    const ids = new Set<string>();
    const paths = new Set<string>();
    for (const resource of RESOURCES) {
      expect(ids.has(resource.id), resource.id).toBe(false);
      expect(paths.has(resource.path), resource.path).toBe(false);
      ids.add(resource.id);
      paths.add(resource.path);
      expect(ALL_PERMISSIONS).toContain(resource.permission);
      expect(
        resource.path === resource.permission || resource.path.startsWith(`${resource.permission}/`),
        resource.path,
      ).toBe(true);
    }
  });

  it('names only fields a list resource has in its keyword, sort, totals and action conditions', () => {
    for (const resource of RESOURCES.filter((r): r is ListResource => r.kind === 'list')) {
      const keys = new Set(resource.fields.map((f) => f.key));
      for (const key of resource.keywordFields) expect(keys.has(key), `${resource.id}.${key}`).toBe(true);
      expect(keys.has(resource.defaultSort.replace(/^-/, '')), `${resource.id} sort`).toBe(true);
      for (const key of resource.totals ?? [])
        expect(resource.fields.find((f) => f.key === key)?.kind, `${resource.id}.${key}`).toBe('money');
      for (const action of resource.actions ?? [])
        if (action.when) expect(keys.has(action.when.field), `${resource.id}.${action.name}`).toBe(true);
      for (const field of resource.fields)
        if (field.kind === 'select') expect(field.options?.length, `${resource.id}.${field.key}`).toBeGreaterThan(0);
    }
  });

  it('keeps read-only and create-only fields out of the right forms', () => {
    const admins = RESOURCES.find((r) => r.id === 'admins') as ListResource;
    expect(formFields(admins, 'create').map((f) => f.key)).toContain('password');
    expect(formFields(admins, 'edit').map((f) => f.key)).not.toContain('password');
    expect(formFields(admins, 'edit').map((f) => f.key)).not.toContain('id');
  });
});
