// Section "lab": its module is the lab's (web/js/lab/section.mjs), in the folder that holds the whole lab.
export { makesModels, run, settings } from '../lab/section.mjs';
