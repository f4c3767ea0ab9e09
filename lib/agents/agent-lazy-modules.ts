import { lazyRequire } from '../runtime/lazy-require';

// Serialization loads with the first toDict/fromDict/toYAML/fromYAML, not with `import 'protolink'`.
export const loadSerializeAgent = lazyRequire((): typeof import('./serialization/serialize-agent') =>
  require('./serialization/serialize-agent'),
);
export const loadRestoreAgent = lazyRequire((): typeof import('./serialization/restore-agent') =>
  require('./serialization/restore-agent'),
);
export const loadAgentYaml = lazyRequire((): typeof import('./serialization/agent-yaml') =>
  require('./serialization/agent-yaml'),
);
export const loadReadAgentYamlFile = lazyRequire((): typeof import('./serialization/read-agent-yaml-file') =>
  require('./serialization/read-agent-yaml-file'),
);

/** The serving module, loaded on first `start()`. */
export const loadAgentServer = lazyRequire((): typeof import('../server/start-agent-server') =>
  require('../server/start-agent-server'),
);
