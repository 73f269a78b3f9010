// Where the package's messages send a reader: a section of its documentation, in the repository package.json names
// (the lesson site serves the same pages under docs/). The package tests check that every section named exists.
const DOCS = 'https://github.com/seqorder/seqorder/blob/main/docs/';

/** The URL of the section `anchor` of the documentation's page `page` ('apps.md'). */
export const docsUrl = (page, anchor) => `${DOCS}${page}#${anchor}`;
