/** The page's sound: the on/off setting (remembered in storage) and a player that honours it. */
import { useMemo, useRef, useState } from 'react';
import { loadSoundOn, saveSoundOn, soundPlayer, type AudioLike } from './sound';

export type Sound = ReturnType<typeof soundPlayer>;

export function useSound(storage: Storage | null, audio?: () => AudioLike | null) {
  const [soundOn, setSoundOn] = useState(() => loadSoundOn(storage));
  const soundRef = useRef(soundOn);
  soundRef.current = soundOn;
  const sound = useMemo(() => soundPlayer(() => soundRef.current, audio), [audio]);
  const toggleSound = () => {
    setSoundOn((on) => {
      saveSoundOn(storage, !on);
      return !on;
    });
  };
  return { soundOn, toggleSound, sound };
}
