import 'reflect-metadata';
import { Inject, Injectable, Optional, Scope } from '@nestjs/common';
import { REQUEST } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { Agent } from '../../lib/agents/agent';
import { ToolDefinitionError } from '../../lib/errors/tool-definition-error';
import { ProtolinkModule } from '../../lib/nest/index';
import { Tool } from '../../lib/tools/index';

const card = { name: 'scoped-agent', description: 'Scope checks', url: 'http://127.0.0.1:0' };

async function bootWith(providers: Function[]): Promise<unknown> {
  const moduleRef = await Test.createTestingModule({
    imports: [ProtolinkModule.forRoot({ card })],
    providers: providers as never[],
  }).compile();
  return moduleRef.init().then(
    async () => {
      const tools = [...moduleRef.get(Agent).tools.keys()];
      await moduleRef.close();
      return tools;
    },
    (error: unknown) => error,
  );
}

@Injectable({ scope: Scope.REQUEST })
class RequestContextService {
  readonly user = 'someone';
}

@Injectable()
class AuditLog {
  constructor(readonly context: RequestContextService) {}
}

describe('discoverNestTools', () => {
  describe('a @Tool on a provider that is request-scoped through its dependencies', () => {
    it('names the request-scoped dependency and the chain that leads to it', async () => {
      @Injectable()
      class ReportTools {
        constructor(readonly audit: AuditLog) {}

        @Tool({ name: 'summarize', description: 'Summarize' })
        summarize(): string {
          return 'summary';
        }
      }
      const error = await bootWith([RequestContextService, AuditLog, ReportTools]);
      expect(error).toBeInstanceOf(ToolDefinitionError);
      expect((error as Error).message).toBe(
        'ReportTools.summarize is a @Tool on a provider that is request-scoped because it depends on ' +
          'RequestContextService, declared with scope: Scope.REQUEST (ReportTools → AuditLog → RequestContextService). ' +
          'Tools are registered once on the application-wide Agent, so their provider must be a singleton: ' +
          'make RequestContextService a singleton, or move the tool to a singleton service that does not inject ' +
          'RequestContextService (take the request data as tool arguments).',
      );
    });

    it("names Nest's REQUEST object when the provider injects it", async () => {
      @Injectable()
      class WhoAmITools {
        constructor(@Inject(REQUEST) readonly request: unknown) {}

        @Tool({ name: 'whoami', description: 'Who is asking' })
        whoAmI(): string {
          return 'someone';
        }
      }
      const error = await bootWith([WhoAmITools]);
      expect(error).toBeInstanceOf(ToolDefinitionError);
      expect((error as Error).message).toMatch(
        /^WhoAmITools\.whoAmI is a @Tool on a provider that is request-scoped because it depends on the request object \(@Inject\(REQUEST\)\) \(WhoAmITools → REQUEST\)\. .*make REQUEST a singleton/,
      );
    });

    it('follows property injection too', async () => {
      @Injectable()
      class PropertyTools {
        @Inject(RequestContextService) readonly context!: RequestContextService;

        @Tool({ name: 'by_property', description: 'By property' })
        byProperty(): string {
          return 'ok';
        }
      }
      const error = await bootWith([RequestContextService, PropertyTools]);
      expect(error).toBeInstanceOf(ToolDefinitionError);
      expect((error as Error).message).toContain('(PropertyTools → RequestContextService)');
    });

    it('keeps a provider whose optional dependencies are missing and static', async () => {
      @Injectable()
      class StaticTools {
        constructor(@Optional() @Inject('MISSING') readonly missing: unknown) {}

        @Tool({ name: 'static_tool', description: 'Static' })
        run(): string {
          return 'ok';
        }
      }
      expect(await bootWith([StaticTools])).toEqual(['static_tool']);
    });
  });

  describe('a @Tool on a provider scoped of its own', () => {
    it('says so without a dependency chain', async () => {
      @Injectable({ scope: Scope.REQUEST })
      class PerRequestTools {
        @Tool({ name: 'per_request', description: 'Per request' })
        run(): string {
          return 'ok';
        }
      }
      const error = await bootWith([PerRequestTools]);
      expect(error).toBeInstanceOf(ToolDefinitionError);
      expect((error as Error).message).toMatch(
        /^PerRequestTools\.run is a @Tool on a request-scoped provider\. /,
      );
      expect((error as Error).message).not.toContain('→');
    });
  });
});
