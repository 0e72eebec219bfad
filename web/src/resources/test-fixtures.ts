/** Sample wire objects for the unit tests of the resources and files pages. */
import { UserFile } from '../files/files-api';
import { ResourceMeta } from './resources-api';

export const files: { resource: ResourceMeta; file: UserFile } = {
  resource: {
    UID: 2,
    GUID: '6f1c2a9e-0d5b-4c41-9a61-2f0e8b7d3c10',
    LastModified: '2026-11-26T10:00:00.000Z',
    VersionNumber: 1,
    GroupACL: [3],
    Global: false,
    ResourceName: 'Hosts',
    Description: 'Lookup of host names',
    Size: 10,
    Hash: 'ab',
    Synced: false,
    Domain: 0,
    Labels: [],
  },
  file: {
    GUID: '0b8e7d6c-5a4f-4e3d-8c2b-1a0f9e8d7c6b',
    ThingUUID: '1c9f8e7d-6b5a-4f4e-9d3c-2b1a0f9e8d7c',
    UID: 2,
    GIDs: [],
    Global: true,
    Size: 2048,
    Type: 'image/png',
    Name: 'logo.png',
    Desc: 'The company logo',
    Labels: ['branding'],
    Updated: '2026-11-26T10:00:00.000Z',
  },
};
