import { LANGUAGES } from '../../server/contract/index.js';

/** Starting values of every settings page, the way a running product has them configured. */

const TERMS: Readonly<Record<(typeof LANGUAGES)[number], string>> = {
  zh: '用户服务协议\n\n1. 您应妥善保管账号和密码，因个人原因导致的损失由您自行承担。\n2. 禁止发布违法、色情、暴力、诈骗等内容，违者将被封禁。\n3. 钱包余额仅限本平台内使用，提现需通过实名审核。\n4. 我们会依据隐私政策保护您的个人信息。',
  en: 'Terms of Service\n\n1. Keep your account and password safe; you are responsible for activity under your account.\n2. Illegal, sexual, violent or fraudulent content is forbidden and leads to a ban.\n3. Wallet balances can be withdrawn only after identity review.\n4. We protect your personal data as described in the Privacy Policy.',
  es: 'Condiciones de uso\n\n1. Mantén seguros tu cuenta y tu contraseña.\n2. Está prohibido publicar contenido ilegal, sexual, violento o fraudulento.\n3. Los retiros del monedero requieren verificación de identidad.\n4. Protegemos tus datos según la Política de privacidad.',
  ja: '利用規約\n\n1. アカウントとパスワードは適切に管理してください。\n2. 違法・わいせつ・暴力的・詐欺的な投稿は禁止です。\n3. ウォレットの出金には本人確認が必要です。\n4. 個人情報はプライバシーポリシーに従って保護します。',
};

export function defaultSettings(): Record<string, Record<string, unknown>> {
  return {
    siteFunctions: {
      chatRoomName: 'Nimbus Chat',
      webIconPath: 'icons/favicon.svg',
      logoIconPath: 'icons/logo.svg',
      registerEnabled: true,
      inviteCodeRequired: false,
      phoneVerifyRequired: true,
      friendVerifyRequired: true,
      momentsEnabled: true,
      redEnvelopeEnabled: true,
      walletEnabled: true,
      maxGroupMembers: 2000,
      messageRecallMinutes: 2,
      customerServiceUrl: 'https://help.chat.example.com/contact',
    },
    termsOfUse: Object.fromEntries(LANGUAGES.map((language) => [`terms_${language}`, TERMS[language]])),
    signInConfig: {
      enabled: true,
      dailyReward: 20,
      streakDays: 7,
      streakBonus: 500,
      monthlyCap: 2_000,
      rules: '每日签到奖励 0.20，连续签到 7 天额外奖励 5.00；每月上限 20.00。',
    },
    withdrawalConfig: {
      enabled: true,
      minAmount: 10_000,
      maxAmount: 5_000_000,
      dailyLimit: 10_000_000,
      dailyCount: 3,
      feePercent: 1,
      minFee: 100,
      notice: '提现将在 24 小时内审核，请确认收款人姓名与实名信息一致。',
    },
    appInterface: {
      themeColor: '#409EFF',
      splashImage: 'app/splash.svg',
      splashSeconds: 3,
      homeBanner: 'app/banner.svg',
      bannerLink: 'https://events.chat.example.com/spring',
      showMoments: true,
      showWallet: true,
      showDiscover: true,
      aboutText: 'Nimbus Chat — messages, moments and wallet in one app.',
    },
    pushConfig: {
      enabled: true,
      provider: 'jpush',
      appKey: '3f1c2a9b7d5e4c6a8b0d1e2f',
      masterSecret: 'sandbox-jpush-master-secret',
      apnsProduction: true,
    },
    smsConfig: {
      enabled: true,
      provider: 'aliyun',
      accessKey: 'LTAI5tSandboxAccessKey',
      accessSecret: 'sandbox-sms-access-secret',
      signName: 'Nimbus',
      templateCode: 'SMS_246810121',
      dailyLimitPerPhone: 10,
    },
  };
}
