/**
 * Test support for the screens' catalogues: render in Chinese, collect every key a screen asked for that no
 * catalogue holds, and find English words left in what it shows (text that did not come through `t()`).
 */
import { i18n, type Language } from '../i18n';

/** Keys that fall back on purpose to a value given with them (a service's message, an unknown event type). */
const FALLS_BACK = /^(game:)?refusals\.|^events\.types\.|^shoe\.endReasons\.|^game:dealing\./;

/** Runs `body` with the app's i18n in `lng`, returning the keys asked for that no catalogue has. */
export async function missingKeysIn(lng: Language, body: () => Promise<void>): Promise<string[]> {
  const missing: string[] = [];
  const onMissing = (_lngs: readonly string[], ns: string, key: string) => {
    if (!FALLS_BACK.test(key)) missing.push(`${ns}:${key}`);
  };
  const saved = i18n.options.saveMissing;
  i18n.options.saveMissing = true;
  i18n.on('missingKey', onMissing);
  await i18n.changeLanguage(lng);
  try {
    await body();
  } finally {
    i18n.off('missingKey', onMissing);
    i18n.options.saveMissing = saved;
    await i18n.changeLanguage('en');
  }
  return missing;
}

/**
 * The words of three or more Latin letters in `text` other than the `allowed` ones (ids, codes, sha256...): on a
 * screen shown in Chinese, each is text that skipped the catalogue.
 */
export function latinWords(text: string, allowed: readonly string[]): string[] {
  const ok = new Set(allowed);
  const codes = /\b[A-Z0-9]+(?:_[A-Z0-9]+)+\b/g; // refusal codes (CARD_NOT_IN_SHOE) are the same in every language
  const hex = /[0-9a-f]{8,}/g; // commitments and seeds
  return (
    text
      .replace(codes, ' ')
      .replace(hex, ' ')
      .match(/[A-Za-z]{3,}/g) ?? []
  ).filter((w) => !ok.has(w));
}
