import {
  RESOURCES,
  UPLOAD_KINDS,
  fieldUpload,
  type FieldDef,
  type Permission,
  type Resource,
  type UploadKind,
} from '../contract/index.js';

/** The fields of a screen an administrator fills in: its form's, its actions' dialogs', an operation's inputs. */
function formFields(resource: Resource): readonly FieldDef[] {
  switch (resource.kind) {
    case 'list':
    case 'settings':
      return [...resource.fields, ...(resource.actions ?? []).flatMap((action) => action.inputs ?? [])];
    case 'operation':
      return resource.inputs;
    case 'statistics':
      return [];
  }
}

/**
 * Which permissions let an account upload each kind of file: those of the screens with a field
 * that takes that kind (the contract's fieldUpload, the rule the form offers a file by). An
 * account with none of them (the sandbox's operator) has no screen that uploads, so the gateway
 * refuses its uploads rather than let it put files on the file server.
 */
export function uploadPermissions(resources: readonly Resource[] = RESOURCES): Record<UploadKind, Set<Permission>> {
  const out = Object.fromEntries(UPLOAD_KINDS.map((kind) => [kind, new Set<Permission>()])) as Record<
    UploadKind,
    Set<Permission>
  >;
  for (const resource of resources) {
    for (const field of formFields(resource)) {
      if (field.readOnly || field.formHidden) continue;
      const upload = fieldUpload(field);
      if (upload) out[upload.kind].add(resource.permission);
    }
  }
  return out;
}
