import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api';
import { saveFile } from '../export';

type State =
  | { readonly kind: 'idle' }
  | { readonly kind: 'busy' }
  | { readonly kind: 'done' }
  | { readonly kind: 'failed'; readonly error: ApiError };

/**
 * A button that saves some data as a CSV file: `load` gives the text (built in the browser, or the API's CSV).
 * What happens is said in a live region; the messages are the `download.*` keys of the screen's namespace.
 */
export function CsvDownload(props: {
  readonly label: string;
  readonly file: string;
  readonly ns: 'compliance' | 'analyst';
  readonly load: () => string | Promise<string>;
}) {
  const { t } = useTranslation(props.ns);
  const [state, setState] = useState<State>({ kind: 'idle' });
  const run = async () => {
    setState({ kind: 'busy' });
    try {
      saveFile(props.file, await props.load());
      setState({ kind: 'done' });
    } catch (e) {
      setState({
        kind: 'failed',
        error: e instanceof ApiError ? e : new ApiError(0, 'UNEXPECTED', String(e)),
      });
    }
  };
  return (
    <div className="csv-download">
      <button type="button" disabled={state.kind === 'busy'} onClick={() => void run()}>
        {props.label}
      </button>{' '}
      <span className={state.kind === 'failed' ? 'error-text' : 'muted'} role="status">
        {state.kind === 'busy' && t('download.busy', { file: props.file })}
        {state.kind === 'done' && t('download.done', { file: props.file })}
        {state.kind === 'failed' &&
          t('download.failed', { code: state.error.code, message: state.error.message })}
      </span>
    </div>
  );
}
