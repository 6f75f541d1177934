export { registerAudioscrobbler } from './routes.ts';
