import { PERMISSIONS } from '../permissions.js';
import type { ListResource, Resource, SettingsResource } from '../resource.js';
import { EDITABLE, ID, at } from './common-fields.js';

export const APP_INTERFACE = {
  kind: 'settings',
  id: 'appInterface',
  ...at(PERMISSIONS.page),
  fields: [
    { key: 'themeColor', kind: 'text', required: true, maxLength: 7 },
    { key: 'splashImage', kind: 'image' },
    { key: 'splashSeconds', kind: 'number', required: true, min: 0, max: 10 },
    { key: 'homeBanner', kind: 'image' },
    { key: 'bannerLink', kind: 'link' },
    { key: 'showMoments', kind: 'switch' },
    { key: 'showWallet', kind: 'switch' },
    { key: 'showDiscover', kind: 'switch' },
    { key: 'aboutText', kind: 'longtext', maxLength: 5000 },
  ],
} as const satisfies SettingsResource;

export const PUSH_PROVIDERS = ['jpush', 'getui', 'fcm', 'apns'] as const;

/** testPush answers {delivered, messageId}. */
export const PUSH_CONFIG = {
  kind: 'settings',
  id: 'pushConfig',
  ...at(PERMISSIONS.push),
  fields: [
    { key: 'enabled', kind: 'switch' },
    { key: 'provider', kind: 'select', options: PUSH_PROVIDERS, required: true },
    { key: 'appKey', kind: 'text', required: true, maxLength: 128 },
    // Write-only: the backend answers it empty, and an empty value on save keeps the old one.
    { key: 'masterSecret', kind: 'password', maxLength: 256 },
    { key: 'apnsProduction', kind: 'switch' },
  ],
  actions: [
    {
      name: 'testPush',
      target: 'page',
      showsResult: true,
      inputs: [
        { key: 'account', kind: 'text', required: true, maxLength: 32 },
        { key: 'title', kind: 'text', required: true, maxLength: 80 },
        { key: 'content', kind: 'text', required: true, maxLength: 200 },
      ],
    },
  ],
} as const satisfies SettingsResource;

export const SMS_PROVIDERS = ['aliyun', 'tencent', 'twilio'] as const;

/** testMessage answers {delivered, requestId}. */
export const SMS_CONFIG = {
  kind: 'settings',
  id: 'smsConfig',
  ...at(PERMISSIONS.shortMessage),
  fields: [
    { key: 'enabled', kind: 'switch' },
    { key: 'provider', kind: 'select', options: SMS_PROVIDERS, required: true },
    { key: 'accessKey', kind: 'text', required: true, maxLength: 128 },
    { key: 'accessSecret', kind: 'password', maxLength: 256 },
    { key: 'signName', kind: 'text', required: true, maxLength: 40 },
    { key: 'templateCode', kind: 'text', required: true, maxLength: 64 },
    { key: 'dailyLimitPerPhone', kind: 'number', required: true, min: 1, max: 100 },
  ],
  actions: [
    {
      name: 'testMessage',
      target: 'page',
      showsResult: true,
      inputs: [{ key: 'phone', kind: 'text', required: true, maxLength: 20 }],
    },
  ],
} as const satisfies SettingsResource;

export const APP_PLATFORMS = ['android', 'ios', 'windows', 'mac'] as const;

export const APP_VERSIONS = {
  kind: 'list',
  id: 'appVersions',
  ...at(PERMISSIONS.version),
  keywordFields: ['version', 'releaseNotes'],
  defaultSort: '-publishTime',
  recordFields: ['version', 'platform'],
  ...EDITABLE,
  fields: [
    ID,
    { key: 'platform', kind: 'select', options: APP_PLATFORMS, required: true, column: true, filter: true },
    { key: 'version', kind: 'text', required: true, maxLength: 20, column: true },
    { key: 'buildNumber', kind: 'number', required: true, min: 1, column: true, sortable: true, identifier: true },
    // The package can be uploaded: its address fills the link, its size packageSize, and its
    // name (chat-5.1.0.apk) the platform and version left empty.
    {
      key: 'downloadUrl',
      kind: 'link',
      required: true,
      download: true,
      column: true,
      upload: { kind: 'package', sizeField: 'packageSize', platformField: 'platform', versionField: 'version' },
    },
    { key: 'mirrorUrl', kind: 'link' },
    { key: 'packageSize', kind: 'bytes', min: 0, column: true, sortable: true },
    { key: 'forceUpdate', kind: 'switch', column: true, filter: true },
    { key: 'releaseNotes', kind: 'longtext', maxLength: 5000 },
    { key: 'publishTime', kind: 'datetime', required: true, column: true, sortable: true, defaultNow: true },
  ],
} as const satisfies ListResource;

/** This area's resources in menu order. RESOURCES joins the areas' lists, so a declaration is listed beside itself. */
export const APP_SETTINGS_RESOURCES: readonly Resource[] = [APP_INTERFACE, PUSH_CONFIG, SMS_CONFIG, APP_VERSIONS];
