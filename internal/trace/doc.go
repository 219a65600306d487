// Package trace records what an agent did through the tools into a trace
// artifact, reads it back, and turns it into evidence a team can keep: a
// token report with budgets, a self-contained HTML report, and a runnable
// Playwright test.
//
// An artifact is a folder: trace.json (the header, rewritten with a footer
// when the recording stops), steps/NNNNNN.json (one file per tool call) and
// shots/NNNNNN.png (optional screenshots after actions). Every file is
// written to a temporary name and renamed into place, so a server killed
// mid-recording leaves a trace that still opens: [Load] reports it as
// incomplete and says at which step it stopped.
//
// Refs are numbers of one run; a step records what each ref named (role,
// accessible name, surface and the chain of iframes above it), so replay and
// export find the element again by role and name.
//
// The trace tools' arguments ([StartArgs], [PathArgs], [ViewArgs],
// [ExportArgs], [PromoteArgs], [ReplayArgs]) and answers ([State],
// [BudgetResult], [TokensResult], [ViewResult], [ExportResult],
// [PromoteResult], [ReplayResult]) are declared here with their JSON names,
// descriptions and checks; internal/tool embeds them in its inputs. A
// replay picks its steps ([ReplayArgs.Steps]) and finds refs and surfaces
// again ([Reresolve], [FindRef]) through what the server gives it ([Player],
// [Finder]). What the tools write from a trace (the report, the test, the
// spec: [Trace.WriteView], [Trace.WriteExport], [Trace.WriteSpec]) and a
// new recording's folder ([StartArgs.Opener]) are checked against the roots
// and written through files.Roots. Around each call the dispatcher asks
// [Live.For], [Recorder.Veto] and [Step.Finish].
package trace
