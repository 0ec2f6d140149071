/* SPDX-License-Identifier: MIT
 * rec_shapes.c - records with two-dimensional arrays (tests/e2e/records_shapes.sh): of
 * scalars, of records; and a five-dimensional one, which mrdsl cannot declare. */
struct mat {
  double m[2][2];
};
struct pt {
  double x, y;
};
struct quad {
  struct pt c[2][2];
  double w;
};
struct deep {
  double m[1][1][1][1][2];
};

double mat_det(struct mat a) { return a.m[0][0] * a.m[1][1] - a.m[0][1] * a.m[1][0]; }

double quad_sum(const struct quad *q) {
  double s = q->w;
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++)
      s += (i + 1) * q->c[i][j].x - (j + 1) * q->c[i][j].y;
  return s;
}

double deep_sum(struct deep d) { return d.m[0][0][0][0][0] + d.m[0][0][0][0][1]; }
