/**
 * Every screen's text comes from message catalogues through i18next: English and Simplified Chinese, one JSON
 * file per screen (namespace) and language in `en/` and `zh/` (the keys of both must match: i18n.unit.spec.ts).
 * The chosen language is kept in localStorage; times are shown in the casino's time zone (`formatTime`).
 */
import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import enCommon from './en/common.json';
import zhCommon from './zh/common.json';
import enCompliance from './en/compliance.json';
import zhCompliance from './zh/compliance.json';
import enAnalyst from './en/analyst.json';
import zhAnalyst from './zh/analyst.json';
import enDealer from './en/dealer.json';
import zhDealer from './zh/dealer.json';
import enGame from './en/game.json';
import zhGame from './zh/game.json';
import enPlayer from './en/player.json';
import zhPlayer from './zh/player.json';
import enSignin from './en/signin.json';
import zhSignin from './zh/signin.json';
import enPit from './en/pit.json';
import zhPit from './zh/pit.json';
import enSupervisor from './en/supervisor.json';
import zhSupervisor from './zh/supervisor.json';
import enReplay from './en/replay.json';
import zhReplay from './zh/replay.json';

export const LANGUAGES = ['en', 'zh'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Every catalogue: language -> namespace -> messages. A screen adds its namespace to both languages here. */
export const CATALOGUES = {
  en: {
    common: enCommon,
    compliance: enCompliance,
    analyst: enAnalyst,
    game: enGame,
    dealer: enDealer,
    player: enPlayer,
    signin: enSignin,
    pit: enPit,
    supervisor: enSupervisor,
    replay: enReplay,
  },
  zh: {
    common: zhCommon,
    compliance: zhCompliance,
    analyst: zhAnalyst,
    game: zhGame,
    dealer: zhDealer,
    player: zhPlayer,
    signin: zhSignin,
    pit: zhPit,
    supervisor: zhSupervisor,
    replay: zhReplay,
  },
} as const;

const STORAGE_KEY = 'coup.language';

export function storedLanguage(): Language {
  try {
    const v = globalThis.localStorage?.getItem(STORAGE_KEY);
    if (v === 'en' || v === 'zh') return v;
  } catch {
    // storage refused (private mode): English
  }
  return 'en';
}

/** The language's BCP 47 tag for the document and Intl. */
export const localeOf = (lng: Language): string => (lng === 'zh' ? 'zh-CN' : 'en-GB');

export const i18n: I18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  resources: CATALOGUES,
  lng: storedLanguage(),
  fallbackLng: 'en',
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  initAsync: false,
});

export function setLanguage(lng: Language): void {
  try {
    globalThis.localStorage?.setItem(STORAGE_KEY, lng);
  } catch {
    // not kept: the switch still applies to this page
  }
  if (typeof document !== 'undefined') document.documentElement.lang = localeOf(lng);
  void i18n.changeLanguage(lng);
}

/**
 * The casino's time zone (IANA) for every time on screen: set by the service in `<meta name="coup-time-zone">`
 * when configured, else the browser's own.
 */
export function casinoTimeZone(): string | undefined {
  if (typeof document === 'undefined') return undefined;
  const v = document.querySelector('meta[name="coup-time-zone"]')?.getAttribute('content');
  return v !== null && v !== undefined && v !== '' ? v : undefined;
}

/** A recorded instant (ISO) as a date and time in the casino's time zone and the current language. */
export function formatTime(iso: string, options: Intl.DateTimeFormatOptions = {}): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat(localeOf((i18n.language as Language) ?? 'en'), {
    dateStyle: 'short',
    timeStyle: 'medium',
    timeZone: casinoTimeZone(),
    ...options,
  }).format(d);
}
