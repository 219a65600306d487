// Package oracle builds packaged-app test artifacts with the npm packages
// that define their formats, @electron/asar 3.4.1 and @electron/fuses
// 2.1.3 (pinned in package.json and package-lock.json here, installed with
// npm ci the first time a test asks), and reports what those packages read
// back, so production's readers are checked against the formats' owners.
// Tests only; never imported by the product.
package oracle
