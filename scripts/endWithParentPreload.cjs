/**
 * `node --require` this file to end the process once the process that started it is gone
 * (./endWithParent.cjs). The build starts Next's processes with it: `next build` left by a build
 * killed outright wrote on into .next/ and out/, under the next build's feet.
 */
'use strict'
require('./endWithParent.cjs').endWithParent()
