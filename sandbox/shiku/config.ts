import type { SandboxStore } from '../store/sandbox-store.js';
import { MissingParameter, type Params, type Row } from './wire.js';

/**
 * Shiku's system Config (SVC/cn/xyz/mianshi/vo/Config.java), the part read here: its defaults, with
 * the fields the sandbox's site functions hold read from and written to them, so both dialects
 * see one configuration.
 */

/** Config.java's numeric fields and their initial values (the string ones start null and are left out). */
const NUMERIC_DEFAULTS: Readonly<Record<string, number>> = {
  id: 10000,
  XMPPTimeout: 180,
  fileValidTime: -1,
  chatRecordTimeOut: -1,
  telephoneSearchUser: 1,
  nicknameSearchUser: 2,
  isTelephoneLogin: 1,
  isUserIdLogin: 1,
  distance: 0,
  isAuthApi: 1,
  isKeyWord: 0,
  isSaveMsg: 1,
  isSaveMucMsg: 1,
  isMsgSendTime: 0,
  regeditPhoneOrName: 0,
  registerInviteCode: 0,
  isSaveRequestLogs: 0,
  roamingTime: -2,
  outTimeDestroy: -1,
  isFriendsVerify: 1,
  isEncrypt: 0,
  isMultiLogin: 1,
  maxUserSize: 1000,
  isOpenSMSCode: 1,
  isOpenReceipt: 1,
  isOpenOnlineStatus: 0,
};
const TEXT_DEFAULTS: Readonly<Record<string, string>> = { language: 'zh', iosPushServer: 'apns', SMSType: 'aliyun' };
const TEXT_FIELDS = [
  'helpUrl',
  'shareUrl',
  'softUrl',
  'privacyPolicyPrefix',
  'promotionUrl',
  'language',
  'iosPushServer',
  'SMSType',
];

export class ShikuConfig {
  /** Config fields the site functions do not hold, as last saved. */
  readonly values: Row = { ...NUMERIC_DEFAULTS, ...TEXT_DEFAULTS };

  constructor(private readonly store: SandboxStore) {}

  private get site(): Row {
    return this.store.settings.siteFunctions ?? {};
  }

  read(): Row {
    const site = this.site;
    // Lombok's getXMPPTimeout / getSMSType, named by fastjson: the first letter lowered ("xMPPTimeout",
    // "sMSType"); Spring binds the setters' properties as "XMPPTimeout" / "SMSType" (Introspector).
    const { XMPPTimeout, SMSType, ...rest } = this.values;
    return {
      ...rest,
      xMPPTimeout: XMPPTimeout,
      sMSType: SMSType,
      // registerInviteCode: 0 off, 1 one code per user and required, 2 shared codes and optional.
      registerInviteCode:
        site.inviteCodeRequired === true
          ? 1
          : Number(this.values.registerInviteCode) === 1
            ? 0
            : this.values.registerInviteCode,
      isFriendsVerify: site.friendVerifyRequired === false ? 0 : 1,
      isOpenSMSCode: site.phoneVerifyRequired === false ? 0 : 1,
      maxUserSize: typeof site.maxGroupMembers === 'number' ? site.maxGroupMembers : this.values.maxUserSize,
      helpUrl: typeof site.customerServiceUrl === 'string' ? site.customerServiceUrl : this.values.helpUrl,
    };
  }

  /**
   * `@ModelAttribute Config`: a new Config with its defaults, the posted fields bound over them,
   * saved whole. A field the form leaves out goes back to its default, as in Shiku.
   */
  write(params: Params): void {
    const next: Row = { ...NUMERIC_DEFAULTS, ...TEXT_DEFAULTS };
    for (const key of Object.keys(NUMERIC_DEFAULTS)) {
      if (!params.has(key) || params.str(key) === '') continue;
      const value = Number(params.str(key));
      if (Number.isFinite(value)) next[key] = value;
    }
    for (const key of TEXT_FIELDS) if (params.has(key)) next[key] = params.str(key);
    Object.assign(this.values, next);
    for (const key of TEXT_FIELDS) if (!params.has(key) && !(key in TEXT_DEFAULTS)) delete this.values[key];
    const site = this.store.settings.siteFunctions;
    if (site) {
      site.inviteCodeRequired = next.registerInviteCode === 1;
      site.friendVerifyRequired = next.isFriendsVerify !== 0;
      site.phoneVerifyRequired = next.isOpenSMSCode !== 0;
      site.maxGroupMembers = next.maxUserSize;
      if (typeof next.helpUrl === 'string') site.customerServiceUrl = next.helpUrl;
    }
  }
}

/** ClientConfig.java's defaults (the numeric fields; the text ones start null and are left out). */
const CLIENT_DEFAULTS: Readonly<Record<string, number>> = {
  id: 10000,
  isOpenRegister: 1,
  showContactsUser: 1,
  isOpenReadReceipt: 1,
  displayRedPacket: 1,
  hideSearchByFriends: 1,
  isCommonFindFriends: 0,
  isCommonCreateGroup: 0,
  isOpenPositionService: 0,
  isOpenAPNSorJPUSH: 1,
  isOpenRoomSearch: 0,
  androidVersion: 0,
  iosVersion: 0,
  pcVersion: 0,
  macVersion: 0,
};
const CLIENT_TEXT = [
  'apiUrl',
  'downloadAvatarUrl',
  'downloadUrl',
  'uploadUrl',
  'liveUrl',
  'jitsiServer',
  'address',
  'appleId',
  'companyName',
  'copyright',
  'website',
  'headBackgroundImg',
  'androidAppUrl',
  'iosAppUrl',
  'androidExplain',
  'iosExplain',
  'pcAppUrl',
  'pcExplain',
  'macAppUrl',
  'macExplain',
  'androidDisable',
  'iosDisable',
  'pcDisable',
  'macDisable',
];

/** The console's platforms of app versions and ClientConfig's prefix of each. */
const CLIENT_PLATFORMS = [
  ['android', 'android'],
  ['ios', 'ios'],
  ['windows', 'pc'],
  ['mac', 'mac'],
] as const;
/** ClientConfig.website (公司下载页网址), the company's download page: null in Shiku until set. */
export const SEEDED_WEBSITE = 'https://download.sandbox.example/';

/**
 * Shiku's ClientConfig (`/console/clientConfig`, `/console/clientConfig/set`). The store's site
 * functions have no column for any of it, so the dialect keeps it; `set` binds a new ClientConfig
 * and copies every property over the saved one (BeanUtils.copyProperties), so a field left out of
 * the form goes back to its default, as with Config.
 */
export class ShikuClientConfig {
  private values: Row;

  /**
   * Seeded as a deployment keeps it: each platform's latest version in the store (its build number
   * is Shiku's int version), and a download page.
   */
  constructor(store?: SandboxStore) {
    this.values = { ...CLIENT_DEFAULTS };
    if (!store) return;
    for (const [platform, prefix] of CLIENT_PLATFORMS) {
      const latest = store.appVersions
        .all()
        .filter((v) => v.platform === platform)
        .sort((a, b) => b.buildNumber - a.buildNumber)[0];
      if (!latest) continue;
      this.values[`${prefix}Version`] = latest.buildNumber;
      this.values[`${prefix}AppUrl`] = latest.downloadUrl;
      if (latest.releaseNotes) this.values[`${prefix}Explain`] = latest.releaseNotes;
    }
    this.values.website = SEEDED_WEBSITE;
  }

  read(): Row {
    return { ...this.values };
  }

  write(params: Params): void {
    const next: Row = { ...CLIENT_DEFAULTS };
    for (const key of Object.keys(CLIENT_DEFAULTS)) {
      if (key === 'id' || params.str(key) === '') continue;
      // An int or byte field that is not a number fails the binding: BindException, 1010101.
      if (!/^[-+]?\d+$/.test(params.str(key).trim()))
        throw new MissingParameter(
          `Failed to convert property value of type 'java.lang.String' to required type 'int' for property '${key}'`,
        );
      next[key] = Number(params.str(key).trim());
    }
    for (const key of CLIENT_TEXT) if (params.has(key)) next[key] = params.str(key);
    this.values = next;
  }
}
