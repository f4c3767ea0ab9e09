import {
  hasResumableStreams,
  isSessionEraVersion,
  LATEST_SESSION_ERA_VERSION,
  SESSION_ERA_VERSIONS,
  toProtocolEra,
} from '../../../lib/mcp/wire/protocol-eras';

describe('protocol eras', () => {
  describe('toProtocolEra', () => {
    it('puts every initialize-and-session revision in the session era', () => {
      for (const version of ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'])
        expect(toProtocolEra(version)).toBe('session');
    });

    it('knows no era for a revision this package does not serve', () => {
      expect(toProtocolEra('2099-01-01')).toBeUndefined();
      expect(toProtocolEra('')).toBeUndefined();
    });
  });

  describe('SESSION_ERA_VERSIONS', () => {
    it('lists the session era oldest first, ending with the latest one', () => {
      expect([...SESSION_ERA_VERSIONS]).toEqual([...SESSION_ERA_VERSIONS].sort());
      expect(SESSION_ERA_VERSIONS.at(-1)).toBe(LATEST_SESSION_ERA_VERSION);
      expect(Object.isFrozen(SESSION_ERA_VERSIONS)).toBe(true);
    });
  });

  describe('isSessionEraVersion', () => {
    it('refuses what is not a known revision string', () => {
      expect(isSessionEraVersion('2025-11-25')).toBe(true);
      expect(isSessionEraVersion(['2025-11-25'])).toBe(false);
      expect(isSessionEraVersion(undefined)).toBe(false);
      expect(isSessionEraVersion('2025-11-25 ')).toBe(false);
    });
  });

  describe('hasResumableStreams', () => {
    it('is true from 2025-11-25 on, false before and for unknown revisions', () => {
      expect(hasResumableStreams('2025-11-25')).toBe(true);
      expect(hasResumableStreams('2025-06-18')).toBe(false);
      expect(hasResumableStreams('2099-01-01')).toBe(false);
    });
  });
});
