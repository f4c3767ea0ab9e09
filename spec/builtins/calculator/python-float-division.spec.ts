import {
  pythonFloatFloorDivide,
  pythonFloatModulo,
} from '../../../lib/builtins/calculator/python-float-division';

describe('python-float-division', () => {
  describe('pythonFloatModulo()', () => {
    it.each([
      [7.5, 2, 1.5],
      [-7.5, 2, 0.5],
      [7.5, -2, -0.5],
      [-1e-300, 1, 1],
      [5.5, 2.5, 0.5],
    ])('%p %% %p == %p with the sign of the divisor', (dividend, divisor, expected) => {
      expect(pythonFloatModulo(dividend, divisor)).toBe(expected);
    });

    it('returns a zero with the sign of the divisor', () => {
      expect(Object.is(pythonFloatModulo(4, -2), -0)).toBe(true);
      expect(Object.is(pythonFloatModulo(-4, 2), 0)).toBe(true);
    });
  });

  describe('pythonFloatFloorDivide()', () => {
    it.each([
      [7.5, 2, 3],
      [-7.5, 2, -4],
      [7.5, -2, -4],
      [-7.5, -2, 3],
      [1, 0.1, 9],
      [29207, 2.2372900000000003e-13, 130546330605330540],
    ])('%p // %p == %p', (dividend, divisor, expected) => {
      expect(pythonFloatFloorDivide(dividend, divisor)).toBe(expected);
    });

    it('returns a zero with the sign of the true quotient', () => {
      expect(Object.is(pythonFloatFloorDivide(-0, 1), -0)).toBe(true);
      expect(Object.is(pythonFloatFloorDivide(0.5, -2), -1)).toBe(true);
      expect(Object.is(pythonFloatFloorDivide(0, -2), -0)).toBe(true);
    });
  });
});
