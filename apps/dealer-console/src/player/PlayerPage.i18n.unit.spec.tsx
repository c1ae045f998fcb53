/**
 * The player page in Simplified Chinese: a coup played, the help opened and a refusal shown; every key it asks
 * for is in the catalogues, and no English is left in what it shows.
 */
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { latinWords, missingKeysIn } from '../components/i18nTesting';
import { PlayerPage } from './PlayerPage';
import { fakeTable } from './fakeTable';

/**
 * The table's and player's ids, the shuffle's hash name, the key names: the same in every language; and the
 * supervisor's reason for a void, shown as recorded.
 */
const ALLOWED = ['online', 'alice', 'sha', 'Esc', 'cards', 'exposed'];

it('shows the player page in Chinese: every key in the catalogues, no English left', async () => {
  const fake = fakeTable('alice');
  const { tableId } = await fake.api.open();
  await fake.api.buyIn(tableId, 100_000);
  let text = '';
  const missing = await missingKeysIn('zh', async () => {
    const { container, unmount } = render(
      <PlayerPage
        api={fake.api}
        playerId="alice"
        loadHistory={async () => fake.playerEvents()}
        revealMs={1}
        audio={() => null}
      />,
    );
    const player = await screen.findByRole('button', { name: /^下注\s*闲\s*1 赔 1/ });
    fireEvent.click(player);
    await waitFor(() => expect(screen.getByTestId('total-bet').textContent).toBe('总注额：$1'));
    fireEvent.click(screen.getByRole('button', { name: /^下注\s*庄/ })); // refused: Player and Banker together
    await screen.findByRole('alert');
    fireEvent.click(screen.getByRole('button', { name: '发牌' }));
    await screen.findByTestId('history-1');
    await screen.findByTestId('ledger-summary');
    // a second coup, corrected after it settled; the first voided: both rows say so
    fireEvent.click(screen.getByRole('button', { name: /^下注\s*闲\s*1 赔 1/ }));
    await waitFor(() => expect(screen.getByTestId('total-bet').textContent).toBe('总注额：$1'));
    fireEvent.click(screen.getByRole('button', { name: '发牌' }));
    await screen.findByTestId('history-2');
    act(() => void fake.amend('tie'));
    const row = () => screen.getByTestId('history-2');
    await waitFor(() => expect(row().textContent).toContain('结算后已更正'));
    act(() => void fake.amend('void'));
    await waitFor(() => expect(row().getAttribute('data-amended')).toBe('voided'));
    fireEvent.click(screen.getByRole('button', { name: '帮助' }));
    text = container.textContent ?? '';
    const labels = [...container.querySelectorAll('[aria-label],[title]')].map((e) =>
      ['aria-label', 'title'].map((a) => e.getAttribute(a) ?? '').join(' '),
    );
    text += ` ${labels.join(' ')}`;
    unmount();
  });
  expect(missing).toEqual([]);
  expect(text).toContain('百家乐');
  expect(text).toContain('不可同时下注闲和庄');
  expect(text).toContain('结算后已作废');
  expect(text).toContain('已退还本金 $1');
  expect(latinWords(text, ALLOWED)).toEqual([]);
}, 20_000); // two coups dealt and two amendments, each card revealed and each waited for: seconds on a busy machine
