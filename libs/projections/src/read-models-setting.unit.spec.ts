import { ReadModelsSettingError, readModelsTarget } from './read-models-setting';

describe('readModelsTarget (COUP_READ_MODELS, as the service and the CLI read it)', () => {
  test('unset or empty: the data folder file; a path: that file from cwd; a PostgreSQL URL: that database', () => {
    expect(readModelsTarget(undefined, '/srv/data', '/srv')).toEqual({
      kind: 'sqlite',
      file: '/srv/data/read-models.sqlite',
    });
    expect(readModelsTarget('', '/srv/data', '/srv')).toEqual(
      readModelsTarget(undefined, '/srv/data', '/srv'),
    );
    expect(readModelsTarget('rm/x.sqlite', '/d', '/srv')).toEqual({
      kind: 'sqlite',
      file: '/srv/rm/x.sqlite',
    });
    expect(readModelsTarget('C:/rm.sqlite', '/d', '/srv')).toMatchObject({ kind: 'sqlite' });
    for (const url of ['postgres://u:p@db:5432/coup', 'PostgreSQL://db/coup'])
      expect(readModelsTarget(url, '/d', '/srv')).toEqual({ kind: 'postgres', url });
  });

  test.each([
    ['postgress://u:secret@db/coup', /must be a SQLite file path or a postgres:\/\/ URL/],
    ['mysql://u:secret@db/coup', /must be a SQLite file path or a postgres:\/\/ URL/],
    ['file://u:secret@x', /must be a SQLite file path or a postgres:\/\/ URL/],
    ['postgres://', /is not a valid URL/],
    ['postgresql://:secret@/coup', /is not a valid URL/],
  ])('%p is refused, never repeating the value', (value, message) => {
    let thrown: unknown;
    try {
      readModelsTarget(value, '/d', '/srv');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ReadModelsSettingError);
    expect((thrown as Error).message).toMatch(message);
    expect((thrown as Error).message).not.toContain('secret');
  });
});
