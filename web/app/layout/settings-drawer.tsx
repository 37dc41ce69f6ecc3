import { Suspense, use } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import type { Signal } from '@preact/signals-react';
import { Dialog, DialogPanel, DialogTitle, Field, Label, Radio, RadioGroup, Switch } from '@headlessui/react';
import {
  COLOR_SCHEMES,
  colorScheme,
  fixedHeader,
  showSettings,
  sidebarLogo,
  tagsView,
  theme,
  type ColorScheme,
} from '../../lib/settings.js';
import { pageMessagesReady, useT, type MessageKey } from '../../i18n/index.js';
import { UiIcon } from '../../ui/icons.js';

function Toggle({ label, setting, testId }: { label: MessageKey; setting: Signal<boolean>; testId: string }) {
  const t = useT();
  return (
    <Field className="flex items-center justify-between py-3">
      <Label className="text-sm text-slate-700">{t(label)}</Label>
      <Switch
        checked={setting.value}
        onChange={(v: boolean) => (setting.value = v)}
        data-testid={testId}
        className="group relative inline-flex h-6 w-11 shrink-0 rounded-full bg-slate-300 transition-colors data-[checked]:bg-primary focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary"
      >
        <span className="pointer-events-none m-0.5 inline-block h-5 w-5 rounded-full bg-white shadow transition-transform group-data-[checked]:translate-x-5" />
      </Switch>
    </Field>
  );
}

/** The tab bar's switch: its label is among the pages' messages, which load behind the login. */
function TagsViewToggle() {
  use(pageMessagesReady());
  return <Toggle label="settings.tagsView" setting={tagsView} testId="setting-tags-view" />;
}

const SCHEME_LABELS: Record<ColorScheme, MessageKey> = {
  light: 'settings.schemeLight',
  dark: 'settings.schemeDark',
  system: 'settings.schemeSystem',
};

/** Light, dark or the system's: a radio group (arrow keys move the choice). */
function SchemeChoice() {
  const t = useT();
  return (
    <Field className="py-3">
      <Label className="mb-2 block text-sm text-slate-700">{t('settings.colorScheme')}</Label>
      <RadioGroup
        value={colorScheme.value}
        onChange={(v: ColorScheme) => (colorScheme.value = v)}
        className="flex flex-wrap gap-2"
        data-testid="setting-color-scheme"
      >
        {COLOR_SCHEMES.map((scheme) => (
          <Radio
            key={scheme}
            value={scheme}
            data-scheme={scheme}
            className="min-h-8 cursor-pointer rounded-md border border-slate-300 px-3 py-1 text-sm text-slate-700 data-[checked]:border-primary data-[checked]:bg-primary data-[checked]:text-on-primary focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary"
          >
            {t(SCHEME_LABELS[scheme])}
          </Radio>
        ))}
      </RadioGroup>
    </Field>
  );
}

/** Page settings: fixed header, sidebar logo, tab bar, appearance, theme colour. Headless UI keeps focus inside. */
export function SettingsDrawer() {
  useSignals();
  const t = useT();
  return (
    <Dialog open={showSettings.value} onClose={() => (showSettings.value = false)} className="relative z-50">
      <div className="fixed inset-0 bg-black/30" aria-hidden="true" />
      <DialogPanel
        className="fixed inset-y-0 right-0 flex w-72 max-w-full flex-col bg-white shadow-xl"
        data-testid="settings-drawer"
      >
        <div className="flex items-center justify-between border-b border-slate-200 px-4 py-3">
          <DialogTitle className="font-semibold text-slate-800">{t('settings.title')}</DialogTitle>
          <button
            type="button"
            className="nav-btn"
            aria-label={t('settings.close')}
            onClick={() => (showSettings.value = false)}
          >
            <UiIcon name="close" />
          </button>
        </div>
        <div className="divide-y divide-slate-100 px-4">
          <Toggle label="settings.fixedHeader" setting={fixedHeader} testId="setting-fixed-header" />
          <Toggle label="settings.sidebarLogo" setting={sidebarLogo} testId="setting-sidebar-logo" />
          <Suspense fallback={null}>
            <TagsViewToggle />
          </Suspense>
          <SchemeChoice />
          <Field className="flex items-center justify-between py-3">
            <Label className="text-sm text-slate-700">{t('settings.theme')}</Label>
            <input
              type="color"
              aria-label={t('settings.theme')}
              value={theme.value.toLowerCase()}
              onChange={(e) => (theme.value = e.target.value)}
              className="h-8 w-12 cursor-pointer rounded border border-slate-300"
            />
          </Field>
        </div>
      </DialogPanel>
    </Dialog>
  );
}
