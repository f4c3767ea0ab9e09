// Sample 14 (module): a NestJS service whose data is MCP resources and whose prompt templates are MCP prompts,
// beside its tools, all discovered through DI and put through the agent's policy.
import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { CapabilityPolicy, Param, Prompt, Resource, ResourceTemplate, Tool } from '../../lib/index';
import { ProtolinkModule } from '../../lib/nest/index';

/** The folders completion suggests (providers are declared with the class, before any instance exists). */
const FOLDERS = ['inbox', 'ideas', 'archive'];

/** Where the notes live (an injected dependency, as a database would be). */
@Injectable()
export class NoteStore {
  private readonly notes = new Map<string, string>([
    ['inbox/1', 'Buy pears'],
    ['inbox/2', 'Call Ada'],
    ['ideas/1', 'A sample per idea'],
  ]);

  folders(): string[] {
    return [...new Set([...this.notes.keys()].map((key) => key.split('/')[0]))];
  }

  read(folder: string, id: number): string | undefined {
    return this.notes.get(`${folder}/${id}`);
  }

  add(folder: string, text: string): number {
    const id = [...this.notes.keys()].filter((key) => key.startsWith(`${folder}/`)).length + 1;
    this.notes.set(`${folder}/${id}`, text);
    return id;
  }
}

@Injectable()
export class NotesService {
  constructor(private readonly store: NoteStore) {}

  @Tool({ name: 'add_note', description: 'Adds a note to a folder', capabilities: ['notes.write'] })
  addNote(@Param('folder') folder: string, @Param('text') text: string): number {
    return this.store.add(folder, text);
  }

  @Resource({ uri: 'notes://folders', description: 'The folders, one per line', mimeType: 'text/plain' })
  folders(): string {
    return this.store.folders().join('\n');
  }

  @ResourceTemplate({
    uriTemplate: 'notes://{folder}/{id}',
    name: 'note',
    description: 'One note',
    mimeType: 'text/plain',
    capabilities: ['notes.read'],
    complete: { folder: (value) => FOLDERS.filter((folder) => folder.startsWith(value)) },
  })
  note(@Param('folder') folder: string, @Param('id', { type: 'integer' }) id: number): string {
    return this.store.read(folder, id) ?? `(no note ${folder}/${id})`;
  }

  @Resource({ uri: 'notes://private/diary', description: 'Never served', capabilities: ['notes.private'] })
  diary(): string {
    return 'dear diary';
  }

  @Prompt({
    name: 'plan_day',
    description: 'Plans a day from the notes of a folder',
    complete: { folder: () => ['inbox', 'ideas'] },
  })
  planDay(@Param('folder', { description: 'The folder to plan from' }) folder: string): unknown[] {
    const first = this.store.read(folder, 1) ?? '';
    return [
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: { uri: `notes://${folder}/1`, mimeType: 'text/plain', text: first },
        },
      },
      { role: 'user', content: `Plan my day around the note above (folder ${folder}).` },
    ];
  }
}

@Module({
  imports: [
    ProtolinkModule.forRoot({
      card: {
        name: 'notes-agent',
        description: 'Notes, as tools, resources and prompts',
        url: 'http://127.0.0.1:0',
      },
      policy: new CapabilityPolicy({ 'notes.private': 'deny' }),
      serve: {},
    }),
  ],
  providers: [NoteStore, NotesService],
})
export class NotesAppModule {}
