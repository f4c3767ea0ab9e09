// class-transformer keeps its metadata storage in a module it does not type; this shim names what we read.
declare module 'class-transformer/cjs/storage' {
  import type { MetadataStorage } from 'class-transformer/types/MetadataStorage';
  export const defaultMetadataStorage: MetadataStorage;
}
