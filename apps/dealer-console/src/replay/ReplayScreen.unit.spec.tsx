import { act, fireEvent, render, screen, within } from '@testing-library/react';
import type { ReadApi } from './api';
import { ReplayScreen, HAND_REREAD_MS } from './ReplayScreen';
import { liveTable, replayOf, verification } from './testing/fixture';

const events = liveTable();

function fakeApi(failing: string | null = null): ReadApi {
  return {
    // a fresh copy on every call, as if read again from the service
    replay: jest.fn(async (_t: string, round: number) => JSON.parse(JSON.stringify(replayOf(events, round)))),
    verify: jest.fn(async (_t: string, round: number) => verification(round, failing)),
    hands: jest.fn(),
    hand: jest.fn(),
  } as unknown as ReadApi;
}

async function open(initialStep: number | null = null, api = fakeApi()) {
  const view = render(
    <ReplayScreen token="t" tableId="T1" roundNo={1} initialStep={initialStep} api={api} />,
  );
  await screen.findByRole('group', { name: 'replay stepper' });
  return view;
}

const heading = () => screen.getByTestId('step-heading').textContent ?? '';
const slider = () => screen.getByRole('slider', { name: 'step' }) as HTMLInputElement;

afterEach(() => {
  jest.useRealTimers();
  window.history.replaceState(null, '', '#/');
});

describe('ReplayScreen: the stepper', () => {
  it('given a link to step 5, when opened, then it shows the table after the fifth event', async () => {
    await open(5);
    expect(heading()).toMatch(/^Step 5: CardDealt/);
    expect(slider().value).toBe('5');
    expect(screen.getByText('Step 5 of 10')).toBeTruthy();
    // the player's first card is on the table
    expect(
      within(screen.getByRole('region', { name: 'player hand' })).getByLabelText('2 of clubs'),
    ).toBeTruthy();
    expect(screen.getByTestId('fold-match').textContent).toMatch(/same table as the service/);
  });

  it('steps forward and back with the buttons and the arrow keys, and the address follows', async () => {
    await open();
    expect(heading()).toBe('Before the hand');
    fireEvent.click(screen.getByRole('button', { name: /^Step/ }));
    expect(heading()).toMatch(/^Step 1: BettingOpened/);
    expect(window.location.hash).toBe('#/tables/T1/hands/1?step=1');
    fireEvent.keyDown(window, { key: 'ArrowRight' });
    fireEvent.keyDown(window, { key: 'ArrowRight' });
    expect(heading()).toMatch(/^Step 3: BetPlaced/);
    fireEvent.click(screen.getByRole('button', { name: /^Back/ }));
    expect(heading()).toMatch(/^Step 2: BetPlaced/);
    fireEvent.keyDown(window, { key: 'ArrowLeft' });
    expect(heading()).toMatch(/^Step 1:/);
    fireEvent.keyDown(window, { key: 'End' });
    expect(heading()).toMatch(/^Step 10: CoupResolved/);
    expect((screen.getByRole('button', { name: /^Step/ }) as HTMLButtonElement).disabled).toBe(true);
    expect(window.location.hash).toBe('#/tables/T1/hands/1?step=10');
  });

  it('the slider jumps to any step', async () => {
    await open();
    fireEvent.change(slider(), { target: { value: '4' } });
    expect(heading()).toMatch(/^Step 4: BettingClosed/);
    fireEvent.change(slider(), { target: { value: '0' } });
    expect(heading()).toBe('Before the hand');
  });

  it('play steps on its own to the end and stops; pause stops it where it is', async () => {
    await open(0);
    jest.useFakeTimers();
    fireEvent.click(screen.getByRole('button', { name: /^Play/ }));
    act(() => {
      jest.advanceTimersByTime(700 * 3);
    });
    expect(heading()).toMatch(/^Step 3:/);
    fireEvent.click(screen.getByRole('button', { name: /^Pause/ }));
    act(() => {
      jest.advanceTimersByTime(700 * 5);
    });
    expect(heading()).toMatch(/^Step 3:/);
    fireEvent.keyDown(window, { key: 'p' });
    act(() => {
      jest.advanceTimersByTime(700 * 20);
    });
    expect(heading()).toMatch(/^Step 10: CoupResolved/);
    expect(screen.getByRole('button', { name: /^Play/ })).toBeTruthy();
  });

  it('shows the coup re-resolved by the engine beside the record, and each verify check passed or failed', async () => {
    await open(null, fakeApi('chain'));
    const coup = screen.getByRole('region', { name: 'coup re-resolved' });
    expect(coup.textContent).toMatch(/MATCHES.*Banker wins 4 to 7/);
    const checks = await screen.findByRole('region', { name: 'verify checks' });
    await within(checks).findByText(/NOT VERIFIED/);
    expect(within(checks).getByLabelText('verification').textContent).toBe(
      'NOT VERIFIED: 3 passed, 1 failed, 2 skipped',
    );
    const row = (name: string) => checks.querySelector(`[data-check="${name}"]`)?.textContent ?? '';
    expect(row('chain')).toMatch(/FAILED/);
    expect(row('coup')).toMatch(/PASSED/);
    expect(row('shuffle')).toMatch(/SKIPPED/);
  });

  it('a verification with pending checks is asked for again until none is pending', async () => {
    jest.useFakeTimers();
    const api = fakeApi();
    const pending = verification(1);
    const revealed = verification(1);
    const withStatus = (v: typeof pending, status: 'pending' | 'pass') => ({
      ...v,
      checks: v.checks.map((c) => (c.name === 'commitment' || c.name === 'shuffle' ? { ...c, status } : c)),
    });
    const verify = api.verify as jest.Mock;
    verify
      .mockResolvedValueOnce(withStatus(pending, 'pending'))
      .mockResolvedValueOnce(withStatus(pending, 'pending'))
      .mockResolvedValue(withStatus(revealed, 'pass'));
    await open(null, api);
    const checks = await screen.findByRole('region', { name: 'verify checks' });
    await within(checks).findByText(/2 pending/);
    await act(async () => {
      jest.advanceTimersByTime(HAND_REREAD_MS);
    });
    expect(verify).toHaveBeenCalledTimes(2);
    await act(async () => {
      jest.advanceTimersByTime(HAND_REREAD_MS);
    });
    expect(within(checks).getByLabelText('verification').textContent).toBe('VERIFIED: 6 passed, 0 failed');
    // Nothing pending: no more questions.
    await act(async () => {
      jest.advanceTimersByTime(5 * HAND_REREAD_MS);
    });
    expect(verify).toHaveBeenCalledTimes(3);
  });

  it('a hand still being dealt (as far as the read side knows) is read again until it is resolved', async () => {
    jest.useFakeTimers();
    const api = fakeApi();
    const replay = api.replay as jest.Mock;
    const done = replayOf(events, 1);
    // The read side had the hand up to its third event when the page opened.
    const dealing = { ...done, status: 'dealing' as const, steps: done.steps.slice(0, 3) };
    replay.mockResolvedValueOnce(dealing).mockImplementation(async () => JSON.parse(JSON.stringify(done)));
    await open(null, api);
    expect(screen.getByText('Step 0 of 3')).toBeTruthy();
    await act(async () => {
      jest.advanceTimersByTime(HAND_REREAD_MS);
    });
    expect(await screen.findByText('Step 0 of 10')).toBeTruthy();
    expect(screen.getByRole('region', { name: 'coup re-resolved' }).textContent).toMatch(/MATCHES/);
    await act(async () => {
      jest.advanceTimersByTime(5 * HAND_REREAD_MS);
    });
    expect(replay).toHaveBeenCalledTimes(2);
  });

  it('the same hand replayed twice shows the same steps, byte for byte', async () => {
    const capture = async () => {
      const view = await open(0);
      const steps: string[] = [];
      for (let s = 0; s <= 10; s++) {
        fireEvent.change(slider(), { target: { value: String(s) } });
        steps.push(screen.getByRole('region', { name: 'step' }).outerHTML);
      }
      view.unmount();
      return steps;
    };
    const first = await capture();
    const second = await capture();
    expect(new Set(first).size).toBe(11);
    expect(second).toEqual(first);
    expect(second.join('\n')).toBe(first.join('\n'));
  });

  it('a refused replay shows the service message', async () => {
    const api = fakeApi();
    const { ApiError } = await import('../api');
    (api.replay as jest.Mock).mockRejectedValue(new ApiError(404, 'UNKNOWN_HAND', 'no hand 1 at table T1'));
    render(<ReplayScreen token="t" tableId="T1" roundNo={1} initialStep={null} api={api} />);
    expect((await screen.findByRole('alert')).textContent).toMatch(/UNKNOWN_HAND.*no hand 1 at table T1/);
  });
});
