// The sub-charts of the chart, each a Component gated by its `enabled` key.
import type { Component } from '../context.ts';

export const SUBCHART_COMPONENTS: readonly Component[] = [];
