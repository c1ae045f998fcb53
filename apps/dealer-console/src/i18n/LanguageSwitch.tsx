import { useTranslation } from 'react-i18next';
import { type Language, LANGUAGES, setLanguage } from './index';

/** The language switch every screen shows (English / 简体中文). */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation('common');
  return (
    <label className="language-switch">
      <span>{t('language')}</span>{' '}
      <select value={i18n.language} onChange={(e) => setLanguage(e.target.value as Language)}>
        {LANGUAGES.map((l) => (
          <option key={l} value={l}>
            {t(`languages.${l}`)}
          </option>
        ))}
      </select>
    </label>
  );
}
