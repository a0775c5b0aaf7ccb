//! Inline SVG plots rendered with plotters' SVG backend into a `String`, so the HTML report
//! is one self-contained file.

use plotters::prelude::*;
use serde::Serialize;

/// One line or scatter series.
#[derive(Clone, Debug, Serialize)]
pub struct Series {
    /// Legend label.
    pub label: String,
    /// Points (x, y).
    pub points: Vec<(f64, f64)>,
    /// Draw points instead of a line.
    pub scatter: bool,
}

/// A horizontal band (e.g. the paper's value with its tolerance).
#[derive(Clone, Debug, Serialize)]
pub struct HBand {
    /// Legend label.
    pub label: String,
    /// Lower edge.
    pub lo: f64,
    /// Upper edge.
    pub hi: f64,
}

/// A plot description.
#[derive(Clone, Debug, Serialize)]
pub struct Plot {
    /// Caption above the plot.
    pub title: String,
    /// x-axis label.
    pub x_label: String,
    /// y-axis label.
    pub y_label: String,
    /// The data.
    pub series: Vec<Series>,
    /// Shaded horizontal bands.
    pub bands: Vec<HBand>,
}

const PALETTE: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
];

impl Plot {
    /// A line plot with the given series.
    pub fn lines(
        title: &str,
        x_label: &str,
        y_label: &str,
        series: Vec<(String, Vec<(f64, f64)>)>,
    ) -> Plot {
        Plot {
            title: title.into(),
            x_label: x_label.into(),
            y_label: y_label.into(),
            series: series
                .into_iter()
                .map(|(label, points)| Series {
                    label,
                    points,
                    scatter: false,
                })
                .collect(),
            bands: Vec::new(),
        }
    }

    /// Renders to an SVG document of `w` x `h` pixels.
    pub fn to_svg(&self, w: u32, h: u32) -> String {
        let mut buf = String::new();
        {
            let root = SVGBackend::with_string(&mut buf, (w, h)).into_drawing_area();
            if self.draw(&root).is_err() {
                drop(root);
                return String::from("<svg xmlns=\"http://www.w3.org/2000/svg\"><text x=\"10\" y=\"20\">plot failed</text></svg>");
            }
            let _ = root.present();
        }
        buf
    }

    fn ranges(&self) -> ((f64, f64), (f64, f64)) {
        let mut xr = (f64::INFINITY, f64::NEG_INFINITY);
        let mut yr = (f64::INFINITY, f64::NEG_INFINITY);
        for s in &self.series {
            for &(x, y) in &s.points {
                if x.is_finite() && y.is_finite() {
                    xr = (xr.0.min(x), xr.1.max(x));
                    yr = (yr.0.min(y), yr.1.max(y));
                }
            }
        }
        for b in &self.bands {
            for v in [b.lo, b.hi] {
                if v.is_finite() {
                    yr = (yr.0.min(v), yr.1.max(v));
                }
            }
        }
        if !xr.0.is_finite() {
            xr = (0.0, 1.0);
        }
        if !yr.0.is_finite() {
            yr = (0.0, 1.0);
        }
        if xr.1 <= xr.0 {
            xr = (xr.0 - 0.5, xr.0 + 0.5);
        }
        if yr.1 <= yr.0 {
            yr = (yr.0 - 0.5, yr.0 + 0.5);
        }
        let pad = (yr.1 - yr.0) * 0.05;
        let y0 = if yr.0 >= 0.0 {
            (yr.0 - pad).max(0.0)
        } else {
            yr.0 - pad
        };
        (xr, (y0, yr.1 + pad))
    }

    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, plotters::coord::Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        root.fill(&WHITE)?;
        let ((x0, x1), (y0, y1)) = self.ranges();
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, ("sans-serif", 15))
            .margin(8)
            .x_label_area_size(32)
            .y_label_area_size(52)
            .build_cartesian_2d(x0..x1, y0..y1)?;
        chart
            .configure_mesh()
            .x_desc(self.x_label.as_str())
            .y_desc(self.y_label.as_str())
            .label_style(("sans-serif", 11))
            .light_line_style(WHITE.mix(0.0))
            .draw()?;
        for b in &self.bands {
            let lo = if b.lo.is_finite() { b.lo.max(y0) } else { y0 };
            let hi = if b.hi.is_finite() { b.hi.min(y1) } else { y1 };
            if hi > lo {
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [(x0, lo), (x1, hi)],
                        RGBColor(120, 200, 120).mix(0.25).filled(),
                    )))?
                    .label(b.label.as_str())
                    .legend(|(x, y)| {
                        Rectangle::new(
                            [(x, y - 4), (x + 14, y + 4)],
                            RGBColor(120, 200, 120).mix(0.5).filled(),
                        )
                    });
            }
        }
        for (i, s) in self.series.iter().enumerate() {
            let color = PALETTE[i % PALETTE.len()];
            let pts: Vec<(f64, f64)> = s
                .points
                .iter()
                .copied()
                .filter(|(x, y)| x.is_finite() && y.is_finite())
                .collect();
            if s.scatter {
                chart
                    .draw_series(pts.iter().map(|&p| Circle::new(p, 3, color.filled())))?
                    .label(s.label.as_str())
                    .legend(move |(x, y)| Circle::new((x + 7, y), 3, color.filled()));
            } else {
                chart
                    .draw_series(LineSeries::new(pts, color.stroke_width(1)))?
                    .label(s.label.as_str())
                    .legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 14, y)], color.stroke_width(2))
                    });
            }
        }
        if !self.series.is_empty() || !self.bands.is_empty() {
            chart
                .configure_series_labels()
                .background_style(WHITE.mix(0.8))
                .border_style(BLACK.mix(0.3))
                .label_font(("sans-serif", 11))
                .position(SeriesLabelPosition::UpperRight)
                .draw()?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_a_self_contained_svg_string() {
        let mut p = Plot::lines(
            "t",
            "x",
            "y",
            vec![("a".into(), vec![(0.0, 1.0), (1.0, 2.0)])],
        );
        p.bands.push(HBand {
            label: "paper".into(),
            lo: 1.2,
            hi: 1.5,
        });
        let svg = p.to_svg(400, 300);
        assert!(svg.starts_with("<svg"));
        assert!(svg.contains("</svg>"));
        assert!(!svg.contains("href=\"http"), "no external references");
    }

    #[test]
    fn empty_and_degenerate_plots_do_not_fail() {
        let p = Plot::lines("empty", "x", "y", vec![]);
        assert!(p.to_svg(200, 150).contains("</svg>"));
        let p = Plot::lines(
            "flat",
            "x",
            "y",
            vec![("c".into(), vec![(1.0, 3.0), (1.0, 3.0)])],
        );
        assert!(p.to_svg(200, 150).contains("</svg>"));
    }
}
