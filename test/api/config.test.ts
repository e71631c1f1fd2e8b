import { expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

test('defaults are the embedded ones', () => {
  const c = loadConfig({}, '/srv/app');
  expect(c.PORT).toBe(8080);
  expect(c.databaseUrl).toBe('sqlite:/srv/app/data/gleaner.db');
  expect(c.sources).toEqual({
    clipnet: ['sandbox'],
    picnet: ['sandbox'],
    vidnet: ['sandbox'],
    blipnet: ['sandbox'],
  });
  expect(c.ADMIN_TOKEN).toBeUndefined();
});

test('settings are read and converted', () => {
  const c = loadConfig({ PORT: '9000', VIDNET_SOURCE: 'youtubei,youtube-data-api', LOG_LEVEL: 'warn' });
  expect(c.PORT).toBe(9000);
  expect(c.sources.vidnet).toEqual(['youtubei', 'youtube-data-api']);
});

test('a bad setting stops the start naming it, and hides secrets', () => {
  expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
  expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT="eighty"/);
  expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
  expect(() => loadConfig({ ADMIN_TOKEN: 'short' })).toThrow(/ADMIN_TOKEN=\(hidden\)/);
  expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
  expect(() => loadConfig({ LLM_PROVIDERS: 'model-1.5-pro' })).toThrow(/LLM_BASE_URL/);
});
