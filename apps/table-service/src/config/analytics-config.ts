/**
 * The analysts' settings: the gaming day (COUP_GAMING_DAY, a cut-over time and an IANA time zone), the shifts
 * (COUP_SHIFTS) and the z-score past which a hold is an anomaly (COUP_ANOMALY_Z).
 */
import { type GamingDayConfig, GamingDayConfigError, gamingDayConfig } from '@coup/projections';
import { ConfigError } from './config';

export interface AnalyticsConfig {
  /** Where facts fall in the casino's day: the analysts' read model is folded with it (rebuilt when it changes). */
  readonly gamingDay: GamingDayConfig;
  /** A table-day's or player-day's hold is flagged when |z| passes this. */
  readonly anomalyZ: number;
}

/** The service configuration's part that holds the analysts' settings. */
export interface AnalyticsSetting {
  readonly analytics: AnalyticsConfig;
}

const SETTING = { gamingDay: 'COUP_GAMING_DAY', shifts: 'COUP_SHIFTS' } as const;

/** COUP_GAMING_DAY (default `06:00 UTC`), COUP_SHIFTS (default `day=06:00,swing=14:00,grave=22:00`), COUP_ANOMALY_Z (3). */
export function analyticsOf(env: NodeJS.ProcessEnv): AnalyticsSetting {
  let gamingDay: GamingDayConfig;
  try {
    gamingDay = gamingDayConfig({ gamingDay: env[SETTING.gamingDay], shifts: env[SETTING.shifts] });
  } catch (error) {
    if (error instanceof GamingDayConfigError)
      throw new ConfigError(`${SETTING[error.field]}: ${error.message}`);
    throw error;
  }
  const z = env['COUP_ANOMALY_Z'];
  const anomalyZ = z === undefined || z === '' ? 3 : Number(z);
  if (z !== undefined && z !== '' && (!/^\d+(\.\d+)?$/.test(z) || anomalyZ <= 0 || anomalyZ > 100))
    throw new ConfigError(`COUP_ANOMALY_Z must be a number above 0 and at most 100 (e.g. 3), not '${z}'`);
  return { analytics: { gamingDay, anomalyZ } };
}
