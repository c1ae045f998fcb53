/**
 * The player page in Simplified Chinese: a coup played, the help opened and a refusal shown; every key it asks
 * for is in the catalogues, and no English is left in what it shows.
 */
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { latinWords, missingKeysIn } from '../components/i18nTesting';
import { PlayerPage } from './PlayerPage';
import { fakeTable } from './fakeTable';

/** The table's and player's ids, the shuffle's hash name, the key names: the same in every language. */
const ALLOWED = ['online', 'alice', 'sha', 'Esc'];

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
  expect(latinWords(text, ALLOWED)).toEqual([]);
});
