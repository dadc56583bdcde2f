//! runlens-charts: chart drawing functions generic over plotters' `DrawingBackend`.
