/**
 * A refusal of the service said for people: the code's sentence in the current language (`pit:refusals.<CODE>`),
 * with the service's own message (English, the API's words) beside it for the detail.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api';

/** Any failure of a call as an {@link ApiError}. */
export const asApiError = (e: unknown): ApiError =>
  e instanceof ApiError ? e : new ApiError(0, 'UNEXPECTED', e instanceof Error ? e.message : String(e));

/** The code's sentence, or the generic one when the catalogue has none for it. */
export function useSayCode(): (code: string) => string {
  const { t, i18n } = useTranslation('pit');
  return (code) =>
    i18n.exists(`refusals.${code}`, { ns: 'pit' }) ? t(`refusals.${code}`) : t('refusals.other', { code });
}

/** A refusal's sentence and the service's message (kept in its language). */
export function RefusalText({ code, message }: { readonly code: string; readonly message: string }) {
  const say = useSayCode();
  return (
    <>
      {say(code)}{' '}
      <span className="refusal-detail" lang="en">
        ({code}: {message})
      </span>
    </>
  );
}

/** A refusal shown where the pit looks, announced to screen readers. */
export function RefusalNote({ error }: { readonly error: ApiError | null }) {
  if (!error) return null;
  return (
    <p role="alert" className="refusal">
      <RefusalText code={error.code} message={error.message} />
    </p>
  );
}

/** A command's pending state and refusal; `run` resolves true when the service accepted it. */
export function useCommand() {
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (command: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true);
    setError(null);
    try {
      await command();
      return true;
    } catch (e) {
      setError(asApiError(e));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { error, busy, run };
}
