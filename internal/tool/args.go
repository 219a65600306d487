package tool

type noArgs struct{ Common }
