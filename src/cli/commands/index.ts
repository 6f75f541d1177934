import type { Command } from '../command.ts';
import { importHistory } from './import.ts';
import { keyCreate, keyList, keyRemove } from './keys.ts';
import { libraryScan } from './library.ts';
import { backup, restore } from './backup.ts';
import { exportData } from './export.ts';
import { fakeProviders } from './fake-providers.ts';
import { providerConnect, providerDisconnect, providerList, providerSync } from './providers.ts';
import { serve } from './serve.ts';
import { statsRebuild } from './stats.ts';
import { login, logout, whoami } from './session.ts';
import { tokenCreate, tokenList, tokenRevoke } from './tokens.ts';
import { userCreate, userDemote, userPromote } from './users.ts';

export const commands: Command[] = [serve, userCreate, userPromote, userDemote, login, logout, whoami, tokenList, tokenCreate, tokenRevoke, keyList, keyCreate, keyRemove, importHistory, exportData, backup, restore, libraryScan, providerList, providerConnect, providerDisconnect, providerSync, fakeProviders, statsRebuild];
